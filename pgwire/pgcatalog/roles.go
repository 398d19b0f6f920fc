package pgcatalog

// Roles. The session's user is the one login role (roleOID, the bootstrap
// superuser's OID); pg_database_owner is PostgreSQL 15's predefined role
// that owns schema public, so that the public schema's owner, ACL and
// initial privileges are PostgreSQL's own, and pg_dump finds nothing to
// say about it.
const dbOwnerRoleOID = 6171

// roleName returns the name of the role with OID oid.
func (ev *evaluator) roleName(oid int64) (string, bool) {
	switch oid {
	case roleOID:
		return ev.sess.User, true
	case dbOwnerRoleOID:
		return "pg_database_owner", true
	}
	return "", false
}

// roleOIDByName returns the OID of the role named name.
func (ev *evaluator) roleOIDByName(name string) (uint32, bool) {
	switch name {
	case ev.sess.User:
		return roleOID, true
	case "pg_database_owner":
		return dbOwnerRoleOID, true
	}
	return 0, false
}

// namespaceOwner is the owner of a schema, and its ACL: public's is
// PostgreSQL 15's ({pg_database_owner=UC/pg_database_owner,=U/...}), the
// system schemas' are their owner's with USAGE for PUBLIC; pg_toast has
// none (NULL, its owner's default).
func namespaceOwner(nsp uint32, user string) (owner uint32, acl []Value) {
	owner, name := uint32(roleOID), user
	if nsp == nspToast {
		return owner, nil
	}
	if nsp == nspPublic {
		owner, name = dbOwnerRoleOID, "pg_database_owner"
	}
	return owner, []Value{textV(name + "=UC/" + name), textV("=U/" + name)}
}

// namespaceDescriptions are the schemas' comments, as initdb leaves them.
var namespaceDescriptions = map[uint32]string{nspCatalog: "system catalog schema", nspToast: "reserved schema for TOAST tables",
	nspPublic: "standard public schema"}
