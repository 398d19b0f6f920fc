package storage

import (
	"fmt"
	"strings"
	"time"
)

// GCKind says which rule a GCPolicy is.
type GCKind uint8

const (
	// GCNone never deletes.
	GCNone GCKind = iota
	// GCMaxVersions keeps the MaxVersions newest cells of each column.
	GCMaxVersions
	// GCMaxAge deletes cells whose timestamp is older than now - MaxAge.
	GCMaxAge
	// GCUnion deletes a cell when any rule would.
	GCUnion
	// GCIntersection deletes a cell when every rule would.
	GCIntersection
)

// GCPolicy is a column family's garbage-collection rule (spec §1.4).
type GCPolicy struct {
	Kind        GCKind        `json:"kind,omitempty"`
	MaxVersions int64         `json:"max_versions,omitempty"`
	MaxAge      time.Duration `json:"max_age,omitempty"`
	Rules       []GCPolicy    `json:"rules,omitempty"`
}

// validate checks the limits of spec §1.4 and §8.
func (p GCPolicy) validate(depth int) error {
	if depth > 20 {
		return fmt.Errorf("%w: gc rule nested too deeply", ErrInvalidArgument)
	}
	switch p.Kind {
	case GCNone:
	case GCMaxVersions:
		if p.MaxVersions < 1 {
			return fmt.Errorf("%w: max_num_versions must be positive, got %d", ErrInvalidArgument, p.MaxVersions)
		}
	case GCMaxAge:
		if p.MaxAge < time.Millisecond {
			return fmt.Errorf("%w: max_age must be at least 1ms, got %s", ErrInvalidArgument, p.MaxAge)
		}
	case GCUnion, GCIntersection:
		for _, r := range p.Rules {
			if err := r.validate(depth + 1); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%w: unknown gc rule kind %d", ErrInvalidArgument, p.Kind)
	}
	return nil
}

// eligible reports whether a cell is eligible for deletion: version is its
// 0-based position among its column's cells, newest first.
func (p *GCPolicy) eligible(ts int64, version int64, now int64) bool {
	switch p.Kind {
	case GCMaxVersions:
		return version >= p.MaxVersions
	case GCMaxAge:
		return ts < now-p.MaxAge.Microseconds()
	case GCUnion:
		for i := range p.Rules {
			if p.Rules[i].eligible(ts, version, now) {
				return true
			}
		}
		return false
	case GCIntersection:
		if len(p.Rules) == 0 {
			return false
		}
		for i := range p.Rules {
			if !p.Rules[i].eligible(ts, version, now) {
				return false
			}
		}
		return true
	}
	return false
}

// hasAge reports whether time alone can make cells eligible.
func (p *GCPolicy) hasAge() bool {
	if p.Kind == GCMaxAge {
		return true
	}
	for i := range p.Rules {
		if p.Rules[i].hasAge() {
			return true
		}
	}
	return false
}

// String renders the policy as never, versions(n), age(d), union(...) or
// intersection(...).
func (p GCPolicy) String() string {
	switch p.Kind {
	case GCMaxVersions:
		return fmt.Sprintf("versions(%d)", p.MaxVersions)
	case GCMaxAge:
		return fmt.Sprintf("age(%s)", p.MaxAge)
	case GCUnion, GCIntersection:
		parts := make([]string, len(p.Rules))
		for i, r := range p.Rules {
			parts[i] = r.String()
		}
		name := "union"
		if p.Kind == GCIntersection {
			name = "intersection"
		}
		return name + "(" + strings.Join(parts, ", ") + ")"
	}
	return "never"
}
