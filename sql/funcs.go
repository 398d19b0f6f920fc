package sql

import (
	"fmt"
	"strings"

	"github.com/shale-db/shale/sql/types"
)

// Function is a named SQL function: scalar (Overloads) or aggregate (Agg).
// The registry maps upper-case names to functions; the function-library
// issue adds entries with Register.
type Function struct {
	Name      string
	Overloads []*Overload
	Agg       *AggFunc
	// Volatile functions (RAND, GENERATE_UUID) give a new value on every
	// call: an expression using one is never constant, so the planner
	// does not evaluate it once per execution (key ranges, LIMIT).
	Volatile bool
}

// Overload is one signature of a scalar function.
type Overload struct {
	// Args are the parameter types; a nil entry accepts any type (the
	// overload's Result then checks it).
	Args []*types.Type
	// Variadic repeats the last parameter (zero or more times).
	Variadic bool
	// Ret is the result type; Result, when set, computes it from the
	// argument types instead and may reject them.
	Ret    *types.Type
	Result func(args []*types.Type) (*types.Type, error)
	// ArgTypes, when set, returns the types the arguments are coerced to,
	// computed from their actual types (nil entries: as is); it lets a
	// generic overload coerce a literal (MAP_CONTAINS_KEY's key).
	ArgTypes func(args []*types.Type) []*types.Type
	// Eval computes the result. Unless NullCalls is set, Eval is not called
	// when an argument is NULL: the result is NULL. The argument slice is
	// reused after Eval returns: a result must not alias it.
	Eval      func(args []types.Value, ret *types.Type) (types.Value, error)
	NullCalls bool
	// EvalTo, when set, is Eval writing its result to *dst instead of
	// returning it (*dst is unspecified on error); the evaluator prefers it.
	// A Value is too large to come back in registers, and copying a
	// result out of the callee's frame costs a cheap function as much as
	// its work. Eval must be set as well (evalOf derives it; fixedTo sets
	// both).
	EvalTo func(dst *types.Value, args []types.Value, ret *types.Type) error
}

// evalToFunc is the type of Overload.EvalTo.
type evalToFunc = func(dst *types.Value, args []types.Value, ret *types.Type) error

// AggFunc is an aggregate function.
type AggFunc struct {
	// Result checks the argument types and returns the result type.
	Result func(args []*types.Type) (*types.Type, error)
	// New returns a fresh accumulator for one group.
	New func(ret *types.Type, args []*types.Type) Accumulator
	// CountStar marks COUNT, which accepts `*`.
	CountStar bool
}

// Accumulator folds the rows of one group.
type Accumulator interface {
	// Add folds one row's argument values; they may alias row buffers, so
	// an accumulator that keeps a value copies what it must.
	Add(args []types.Value) error
	// Result returns the aggregate of the rows added so far.
	Result() (types.Value, error)
	// Mem estimates the bytes the accumulator holds (memory caps).
	Mem() int64
}

var registry = map[string]*Function{}

// Register adds scalar overloads to a function (creating it if needed).
func Register(name string, ovs ...*Overload) {
	name = strings.ToUpper(name)
	f := registry[name]
	if f == nil {
		f = &Function{Name: name}
		registry[name] = f
	}
	f.Overloads = append(f.Overloads, ovs...)
}

// RegisterAgg adds an aggregate function.
func RegisterAgg(name string, a *AggFunc) {
	name = strings.ToUpper(name)
	registry[name] = &Function{Name: name, Agg: a}
}

// keywordArgs holds, per function and argument index, the bare words that
// argument accepts (RegisterKeywordArg).
var keywordArgs = map[string]map[int]map[string]bool{}

// RegisterKeywordArg declares that argument i (0-based) of a function may be
// written as one of the bare words (DAY in DATE_TRUNC(d, DAY), NFKC in
// NORMALIZE(s, NFKC)). The binder passes such a word to Eval as an
// upper-case STRING constant; an identifier that is not one of the words is
// still bound as a column reference.
func RegisterKeywordArg(name string, i int, words ...string) {
	name = strings.ToUpper(name)
	if keywordArgs[name] == nil {
		keywordArgs[name] = map[int]map[string]bool{}
	}
	if keywordArgs[name][i] == nil {
		keywordArgs[name][i] = map[string]bool{}
	}
	for _, w := range words {
		keywordArgs[name][i][strings.ToUpper(w)] = true
	}
}

// IsKeywordArg reports whether word is a bare keyword argument i of name.
func IsKeywordArg(name string, i int, word string) bool {
	return keywordArgs[name][i][strings.ToUpper(word)]
}

// Lookup returns a registered function or nil.
func Lookup(name string) *Function { return registry[strings.ToUpper(name)] }

// fixed returns a strict overload with fixed types.
func fixed(ret *types.Type, eval func([]types.Value, *types.Type) (types.Value, error), args ...*types.Type) *Overload {
	return &Overload{Args: args, Ret: ret, Eval: eval}
}

// fixedTo returns a strict overload with fixed types whose function writes
// its result (Overload.EvalTo).
func fixedTo(ret *types.Type, to evalToFunc, args ...*types.Type) *Overload {
	return &Overload{Args: args, Ret: ret, Eval: evalOf(to), EvalTo: to}
}

// evalOf returns the Overload.Eval of an Overload.EvalTo.
func evalOf(to evalToFunc) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		var v types.Value
		if err := to(&v, a, ret); err != nil {
			return types.Value{}, err
		}
		return v, nil
	}
}

// generic returns a strict overload of n any-typed arguments.
func generic(n int, result func([]*types.Type) (*types.Type, error), eval func([]types.Value, *types.Type) (types.Value, error)) *Overload {
	return &Overload{Args: make([]*types.Type, n), Result: result, Eval: eval}
}

// kindIs returns a Result check that argument i has kind k.
func needKind(fn string, i int, k types.Kind, args []*types.Type) error {
	if i < len(args) && args[i].Kind != k {
		return fmt.Errorf("%s expects %s as argument %d, got %s", fn, kindName(k), i+1, args[i])
	}
	return nil
}

func kindName(k types.Kind) string {
	switch k {
	case types.KindMap:
		return "a MAP"
	case types.KindArray:
		return "an ARRAY"
	case types.KindStruct:
		return "a STRUCT"
	}
	return (&types.Type{Kind: k}).String()
}
