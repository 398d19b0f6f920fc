package btserver

import (
	"fmt"
	"strings"

	"github.com/shale-db/shale/storage"
)

// Resource names (spec §1.1). Storage addresses an instance by its full
// name "projects/{p}/instances/{i}" and a table by that instance plus the
// table id; authorized views and schema bundles by their id within the table.

// tableRef names a table, or an object (view, bundle) inside it.
type tableRef struct {
	instance string // "projects/{p}/instances/{i}"
	table    string
}

func (r tableRef) name() string { return r.instance + "/tables/" + r.table }

// splitName splits name into path segments and checks that the segments at
// even positions are the expected collection words, e.g.
// splitName(n, "projects", "instances") for "projects/p/instances/i". It
// returns the ids at odd positions.
func splitName(name, what string, collections ...string) ([]string, error) {
	parts := strings.Split(name, "/")
	if len(parts) != 2*len(collections) {
		return nil, invalidName(what, name)
	}
	ids := make([]string, len(collections))
	for i, c := range collections {
		if parts[2*i] != c || parts[2*i+1] == "" {
			return nil, invalidName(what, name)
		}
		ids[i] = parts[2*i+1]
	}
	return ids, nil
}

func invalidName(what, name string) error {
	return fmt.Errorf("%w: invalid %s name %q", storage.ErrInvalidArgument, what, name)
}

// parseProject parses "projects/{p}" and returns it unchanged.
func parseProject(name string) (string, error) {
	if _, err := splitName(name, "project", "projects"); err != nil {
		return "", err
	}
	return name, nil
}

// parseInstance parses "projects/{p}/instances/{i}" and returns it as the
// storage instance name.
func parseInstance(name string) (string, error) {
	if _, err := splitName(name, "instance", "projects", "instances"); err != nil {
		return "", err
	}
	return name, nil
}

// instanceName formats the storage instance name of project p, instance i.
func instanceName(project, instance string) string {
	return "projects/" + project + "/instances/" + instance
}

// parseTable parses "projects/{p}/instances/{i}/tables/{t}".
func parseTable(name string) (tableRef, error) {
	ids, err := splitName(name, "table", "projects", "instances", "tables")
	if err != nil {
		return tableRef{}, err
	}
	return tableRef{instance: instanceName(ids[0], ids[1]), table: ids[2]}, nil
}

// parseTableChild parses "projects/{p}/instances/{i}/tables/{t}/{coll}/{id}".
func parseTableChild(name, what, coll string) (tableRef, string, error) {
	ids, err := splitName(name, what, "projects", "instances", "tables", coll)
	if err != nil {
		return tableRef{}, "", err
	}
	return tableRef{instance: instanceName(ids[0], ids[1]), table: ids[2]}, ids[3], nil
}

// parseView parses an authorized view name.
func parseView(name string) (tableRef, string, error) {
	return parseTableChild(name, "authorized view", "authorizedViews")
}

// parseBundle parses a schema bundle name.
func parseBundle(name string) (tableRef, string, error) {
	return parseTableChild(name, "schema bundle", "schemaBundles")
}

func viewName(r tableRef, view string) string { return r.name() + "/authorizedViews/" + view }

func bundleName(r tableRef, bundle string) string { return r.name() + "/schemaBundles/" + bundle }

// parseCluster parses "projects/{p}/instances/{i}/clusters/{c}" and returns
// the storage instance name and the cluster id.
func parseCluster(name string) (string, string, error) {
	ids, err := splitName(name, "cluster", "projects", "instances", "clusters")
	if err != nil {
		return "", "", err
	}
	return instanceName(ids[0], ids[1]), ids[2], nil
}

// instanceID returns the last segment of a storage instance name.
func instanceID(instance string) string {
	return instance[strings.LastIndexByte(instance, '/')+1:]
}

// projectOf returns "projects/{p}" of a storage instance name.
func projectOf(instance string) string {
	i := strings.Index(instance, "/instances/")
	if i < 0 {
		return ""
	}
	return instance[:i]
}

// dataTarget turns the target fields of a data request into a storage
// Target: exactly one of table and view must be set (materialized views are
// rejected by the caller before).
func dataTarget(table, view string) (storage.Target, error) {
	switch {
	case table != "" && view != "":
		return storage.Target{}, fmt.Errorf("%w: set only one of table_name and authorized_view_name", storage.ErrInvalidArgument)
	case table != "":
		r, err := parseTable(table)
		if err != nil {
			return storage.Target{}, err
		}
		return storage.Target{Instance: r.instance, Table: r.table}, nil
	case view != "":
		r, v, err := parseView(view)
		if err != nil {
			return storage.Target{}, err
		}
		return storage.Target{Instance: r.instance, Table: r.table, View: v}, nil
	}
	return storage.Target{}, fmt.Errorf("%w: table_name or authorized_view_name is required", storage.ErrInvalidArgument)
}
