package pgcatalog

// acldefault(kind, owner): the privileges an object of a kind has before any
// GRANT, as PostgreSQL 15's acldefault gives them (pg_dump compares every
// ACL against it). The owner is the session's one role.

func init() {
	register("acldefault", &builtin{min: 2, args: []uint32{tChar, tOid}, ret: tACLArray,
		fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
			owner := ev.text(oidV(uint32(a[1].i)), tRegrole)
			def, ok := defaultPrivileges[a[0].s]
			if !ok {
				return null, errorf(CodeInvalidParameter, noPos, "unrecognized object type abbreviation: %s", a[0].s)
			}
			var items []Value // PUBLIC's first, as PostgreSQL lists them
			if def.public != "" {
				items = append(items, textV("="+def.public+"/"+owner))
			}
			if def.owner != "" {
				items = append(items, textV(owner+"="+def.owner+"/"+owner))
			}
			return arrayV(items), nil
		}})
}

// defaultPrivileges are the owner's and PUBLIC's default privileges by
// object kind (acldefault's abbreviations).
var defaultPrivileges = map[string]struct{ owner, public string }{
	"c": {},                           // column
	"r": {owner: "arwdDxt"},           // relation
	"s": {owner: "rwU"},               // sequence
	"d": {owner: "CTc", public: "Tc"}, // database
	"f": {owner: "X", public: "X"},    // function
	"l": {owner: "U", public: "U"},    // language
	"L": {owner: "rw"},                // large object
	"n": {owner: "UC"},                // schema
	"p": {owner: "sA"},                // parameter
	"t": {owner: "C"},                 // tablespace
	"F": {owner: "U"},                 // foreign-data wrapper
	"S": {owner: "U"},                 // foreign server
	"T": {owner: "U", public: "U"},    // type
}
