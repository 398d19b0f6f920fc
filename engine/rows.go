package engine

import (
	"context"
	"strings"

	"github.com/shale-db/shale/exec"
	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql/types"
)

// Rows is the result stream of a Run.
type Rows struct {
	s    *Statement
	run  *exec.Run
	ctx  context.Context
	open bool
	// poisoned: the run panicked, so it is not reused (recover.go).
	poisoned bool
	batch    *exec.Batch
	i        int
	row      []types.Value
	err      error
	lines    []string      // EXPLAIN output
	line     []types.Value // the row of every EXPLAIN line (see Row)
}

// Next advances to the next row; false at the end or on error (see Err).
func (r *Rows) Next() bool {
	if r.lines != nil {
		if len(r.lines) == 0 {
			return false
		}
		r.line[0] = types.StringValue(r.lines[0])
		r.row = r.line
		r.lines = r.lines[1:]
		return true
	}
	if !r.open || r.err != nil {
		return false
	}
	for r.batch == nil || r.i >= len(r.batch.Rows) {
		b, err := r.nextBatch()
		if err != nil {
			r.err = r.s.positioned(err)
			r.Close()
			return false
		}
		if b == nil {
			if err := r.Close(); err != nil { // a run that ends well may still fail to close
				r.err = r.s.positioned(err)
			}
			return false
		}
		r.batch, r.i = b, 0
	}
	r.row = r.batch.Rows[r.i]
	r.i++
	return true
}

// Row returns the current row; it and its values are valid until the
// next call to Next or Close (their memory then goes to later rows, or to
// another run of the statement).
func (r *Rows) Row() []types.Value { return r.row }

// Err returns the error that ended the iteration, if any.
func (r *Rows) Err() error { return r.err }

// nextBatch is the run's next batch; a panic becomes an internal error.
func (r *Rows) nextBatch() (b *exec.Batch, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.poisoned = true
			b, err = nil, r.s.e.internalError("running", r.s.text, p)
		}
	}()
	return r.run.Root.Next()
}

// guard calls fn, which works the run's operators; a panic becomes an
// internal error.
func (r *Rows) guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.poisoned = true
			err = r.s.e.internalError("running", r.s.text, p)
		}
	}()
	return fn()
}

// Close releases the run; it is safe to call more than once.
func (r *Rows) Close() (err error) {
	if !r.open {
		return nil
	}
	r.open = false
	defer func() {
		if p := recover(); p != nil {
			r.poisoned = true
			err = r.s.e.internalError("closing", r.s.text, p)
		}
		// The run's operators may now serve another run of the statement:
		// nothing of it must be reachable from r any more. A run that
		// panicked is left to the collector instead.
		if !r.poisoned {
			r.run.Release()
		}
		r.run, r.batch, r.row = nil, nil, nil
	}()
	return r.run.Root.Close()
}

// explain prepares the EXPLAIN output: the plan, or for EXPLAIN ANALYZE
// the plan with the statistics of a complete run.
func (r *Rows) explain() error {
	text := planner.Format(r.s.plan.Root, nil)
	if r.s.plan.Analyze {
		if err := r.run.Root.Open(r.ctx); err != nil {
			r.run.Root.Close()
			return r.s.positioned(err)
		}
		for {
			b, err := r.run.Root.Next()
			if err != nil {
				r.run.Root.Close()
				return r.s.positioned(err)
			}
			if b == nil {
				break
			}
		}
		r.run.Root.Close()
		text = r.run.Format(r.s.plan.Root, hideTimes(r.ctx))
	}
	r.lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	r.line = make([]types.Value, 1)
	return nil
}

type hideTimesKey struct{}

// WithoutTimes returns a context under which EXPLAIN ANALYZE omits
// durations (deterministic test output).
func WithoutTimes(ctx context.Context) context.Context {
	return context.WithValue(ctx, hideTimesKey{}, true)
}

func hideTimes(ctx context.Context) bool { return ctx.Value(hideTimesKey{}) != nil }
