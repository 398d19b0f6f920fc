package btserver

import (
	"fmt"
	"sort"
	"time"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/shale-db/shale/storage"
)

// Admin conversions: GC rules, family value types, granularity and tables.

// maxGCRuleBytes is the largest serialized GcRule (spec §1.4).
const maxGCRuleBytes = 500

// toGCPolicy converts a GcRule; nil or an empty rule never deletes.
func toGCPolicy(r *adminpb.GcRule) (storage.GCPolicy, error) {
	if n := proto.Size(r); n > maxGCRuleBytes {
		return storage.GCPolicy{}, fmt.Errorf("%w: gc rule is %d bytes serialized, the limit is %d", storage.ErrInvalidArgument, n, maxGCRuleBytes)
	}
	return convertGCRule(r)
}

func convertGCRule(r *adminpb.GcRule) (storage.GCPolicy, error) {
	switch x := r.GetRule().(type) {
	case nil:
		return storage.GCPolicy{Kind: storage.GCNone}, nil
	case *adminpb.GcRule_MaxNumVersions:
		return storage.GCPolicy{Kind: storage.GCMaxVersions, MaxVersions: int64(x.MaxNumVersions)}, nil
	case *adminpb.GcRule_MaxAge:
		if err := x.MaxAge.CheckValid(); err != nil {
			return storage.GCPolicy{}, fmt.Errorf("%w: max_age: %v", storage.ErrInvalidArgument, err)
		}
		return storage.GCPolicy{Kind: storage.GCMaxAge, MaxAge: x.MaxAge.AsDuration().Truncate(time.Microsecond)}, nil
	case *adminpb.GcRule_Union_:
		return convertGCRules(storage.GCUnion, x.Union.GetRules())
	case *adminpb.GcRule_Intersection_:
		return convertGCRules(storage.GCIntersection, x.Intersection.GetRules())
	}
	return storage.GCPolicy{}, fmt.Errorf("%w: unknown gc rule", storage.ErrInvalidArgument)
}

func convertGCRules(kind storage.GCKind, rs []*adminpb.GcRule) (storage.GCPolicy, error) {
	p := storage.GCPolicy{Kind: kind, Rules: make([]storage.GCPolicy, len(rs))}
	for i, r := range rs {
		var err error
		if p.Rules[i], err = convertGCRule(r); err != nil {
			return storage.GCPolicy{}, err
		}
	}
	return p, nil
}

// gcRuleProto converts a GC policy back; GCNone is the empty rule.
func gcRuleProto(p storage.GCPolicy) *adminpb.GcRule {
	switch p.Kind {
	case storage.GCMaxVersions:
		return &adminpb.GcRule{Rule: &adminpb.GcRule_MaxNumVersions{MaxNumVersions: int32(p.MaxVersions)}}
	case storage.GCMaxAge:
		return &adminpb.GcRule{Rule: &adminpb.GcRule_MaxAge{MaxAge: durationpb.New(p.MaxAge)}}
	case storage.GCUnion:
		return &adminpb.GcRule{Rule: &adminpb.GcRule_Union_{Union: &adminpb.GcRule_Union{Rules: gcRuleProtos(p.Rules)}}}
	case storage.GCIntersection:
		return &adminpb.GcRule{Rule: &adminpb.GcRule_Intersection_{Intersection: &adminpb.GcRule_Intersection{Rules: gcRuleProtos(p.Rules)}}}
	}
	return &adminpb.GcRule{}
}

func gcRuleProtos(ps []storage.GCPolicy) []*adminpb.GcRule {
	out := make([]*adminpb.GcRule, len(ps))
	for i, p := range ps {
		out[i] = gcRuleProto(p)
	}
	return out
}

// toAggregator converts a family's value_type. Nil and the plain scalar
// types (bytes, string) are ordinary families; Int64 sum/min/max aggregates
// map to storage aggregators.
func toAggregator(t *adminpb.Type) (storage.Aggregator, error) {
	switch k := t.GetKind().(type) {
	case nil, *adminpb.Type_BytesType, *adminpb.Type_StringType:
		return storage.NoAggregate, nil
	case *adminpb.Type_AggregateType:
		a := k.AggregateType
		var agg storage.Aggregator
		switch a.GetAggregator().(type) {
		case *adminpb.Type_Aggregate_Sum_:
			agg = storage.Sum
		case *adminpb.Type_Aggregate_Min_:
			agg = storage.Min
		case *adminpb.Type_Aggregate_Max_:
			agg = storage.Max
		case *adminpb.Type_Aggregate_HllppUniqueCount:
			return 0, unimplemented("the hllpp_unique_count aggregate")
		default:
			return 0, fmt.Errorf("%w: aggregate type needs an aggregator", storage.ErrInvalidArgument)
		}
		if _, ok := a.GetInputType().GetKind().(*adminpb.Type_Int64Type); !ok {
			return 0, fmt.Errorf("%w: aggregate input_type must be Int64", storage.ErrInvalidArgument)
		}
		return agg, nil
	}
	return 0, fmt.Errorf("%w: unsupported column family value_type %v", storage.ErrInvalidArgument, t)
}

// aggregateTypeProto is the value_type of an Int64 aggregate family.
func aggregateTypeProto(a storage.Aggregator) *adminpb.Type {
	if a == storage.NoAggregate {
		return nil
	}
	int64Type := func() *adminpb.Type {
		return &adminpb.Type{Kind: &adminpb.Type_Int64Type{Int64Type: &adminpb.Type_Int64{
			Encoding: &adminpb.Type_Int64_Encoding{Encoding: &adminpb.Type_Int64_Encoding_BigEndianBytes_{
				BigEndianBytes: &adminpb.Type_Int64_Encoding_BigEndianBytes{},
			}},
		}}}
	}
	agg := &adminpb.Type_Aggregate{InputType: int64Type(), StateType: int64Type()}
	switch a {
	case storage.Sum:
		agg.Aggregator = &adminpb.Type_Aggregate_Sum_{Sum: &adminpb.Type_Aggregate_Sum{}}
	case storage.Min:
		agg.Aggregator = &adminpb.Type_Aggregate_Min_{Min: &adminpb.Type_Aggregate_Min{}}
	case storage.Max:
		agg.Aggregator = &adminpb.Type_Aggregate_Max_{Max: &adminpb.Type_Aggregate_Max{}}
	}
	return &adminpb.Type{Kind: &adminpb.Type_AggregateType{AggregateType: agg}}
}

// toFamily converts a ColumnFamily definition.
func toFamily(name string, cf *adminpb.ColumnFamily) (storage.Family, error) {
	gc, err := toGCPolicy(cf.GetGcRule())
	if err != nil {
		return storage.Family{}, fmt.Errorf("column family %q: %w", name, err)
	}
	agg, err := toAggregator(cf.GetValueType())
	if err != nil {
		return storage.Family{}, err
	}
	vt, err := marshalValueType(cf.GetValueType())
	if err != nil {
		return storage.Family{}, err
	}
	return storage.Family{Name: name, GC: gc, Aggregate: agg, ValueType: vt}, nil
}

// marshalValueType keeps a family's declared value type so that GetTable
// returns it as it was set.
func marshalValueType(t *adminpb.Type) ([]byte, error) {
	if t == nil {
		return nil, nil
	}
	b, err := proto.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("%w: value_type: %v", storage.ErrInvalidArgument, err)
	}
	return b, nil
}

// valueTypeProto is the value type of a family as it was declared, or the
// canonical one of its aggregate.
func valueTypeProto(f storage.Family) *adminpb.Type {
	if len(f.ValueType) > 0 {
		t := new(adminpb.Type)
		if proto.Unmarshal(f.ValueType, t) == nil {
			return t
		}
	}
	return aggregateTypeProto(f.Aggregate)
}

func toGranularity(g adminpb.Table_TimestampGranularity) (storage.Granularity, error) {
	switch g {
	case adminpb.Table_TIMESTAMP_GRANULARITY_UNSPECIFIED:
		return 0, nil
	case adminpb.Table_MILLIS:
		return storage.Millis, nil
	case adminpb.Table_MICROS:
		return storage.Micros, nil
	}
	return 0, fmt.Errorf("%w: unknown timestamp granularity %d", storage.ErrInvalidArgument, g)
}

func granularityProto(g storage.Granularity) adminpb.Table_TimestampGranularity {
	if g == storage.Micros {
		return adminpb.Table_MICROS
	}
	return adminpb.Table_MILLIS
}

// tableProto renders a table in the given view (spec §3.1). Unspecified
// means SCHEMA_VIEW.
func tableProto(t *storage.Table, view adminpb.Table_View) *adminpb.Table {
	out := &adminpb.Table{Name: tableRef{instance: t.Instance, table: t.Name}.name()}
	if view == adminpb.Table_VIEW_UNSPECIFIED {
		view = adminpb.Table_SCHEMA_VIEW
	}
	if view == adminpb.Table_SCHEMA_VIEW || view == adminpb.Table_FULL {
		out.ColumnFamilies = make(map[string]*adminpb.ColumnFamily, len(t.Families))
		for _, f := range t.Families {
			out.ColumnFamilies[f.Name] = &adminpb.ColumnFamily{GcRule: gcRuleProto(f.GC), ValueType: valueTypeProto(f)}
		}
		out.Granularity = granularityProto(t.Granularity)
		out.DeletionProtection = t.DeletionProtection
		out.RowKeySchema = rowKeySchemaProto(t.RowKeySchema)
	}
	if view == adminpb.Table_REPLICATION_VIEW || view == adminpb.Table_ENCRYPTION_VIEW || view == adminpb.Table_FULL {
		out.ClusterStates = map[string]*adminpb.Table_ClusterState{
			clusterID(t.Instance): {ReplicationState: adminpb.Table_ClusterState_READY},
		}
	}
	return out
}

func timestampProto(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}

// sortedKeys returns a map's keys in order, so conversions are
// deterministic.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
