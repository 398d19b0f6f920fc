package btserver

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"cloud.google.com/go/longrunning/autogen/longrunningpb"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/shale-db/shale/storage"
)

// Authorized views (spec §3.6) live in the table descriptor
// (storage.Table.Views) and change through Engine.AlterTable; storage
// enforces them on every data call.

// maxQualifierPrefixes bounds the qualifier prefixes of one view (spec §8).
const maxQualifierPrefixes = 10

// objectIDPattern is the shape of authorized view ids (that of table ids).
var objectIDPattern = regexp.MustCompile(`^[_a-zA-Z0-9][-_.a-zA-Z0-9]{0,49}$`)

// CreateAuthorizedView adds a view to a table.
func (a *tableAdmin) CreateAuthorizedView(ctx context.Context, req *adminpb.CreateAuthorizedViewRequest) (*longrunningpb.Operation, error) {
	ref, err := parseTable(req.GetParent())
	if err != nil {
		return nil, grpcStatus(err)
	}
	id := req.GetAuthorizedViewId()
	if !objectIDPattern.MatchString(id) {
		return nil, grpcStatus(fmt.Errorf("%w: invalid authorized view id %q", storage.ErrInvalidArgument, id))
	}
	v, err := toAuthorizedView(id, req.GetAuthorizedView())
	if err != nil {
		return nil, grpcStatus(err)
	}
	v.DeletionProtection = req.GetAuthorizedView().GetDeletionProtection()
	v.Etag = a.s.newEtag()
	_, err = a.s.e.AlterTable(ctx, ref.instance, ref.table, func(t *storage.Table) error {
		if t.View(id) != nil {
			return fmt.Errorf("%w: authorized view %q", storage.ErrAlreadyExists, id)
		}
		if err := checkViewFamilies(t, &v); err != nil {
			return err
		}
		t.Views = append(t.Views, v)
		return nil
	})
	if err != nil {
		return nil, grpcStatus(err)
	}
	op, err := a.s.doneOperation(viewName(ref, id), viewProto(ref, &v, adminpb.AuthorizedView_FULL))
	return op, grpcStatus(err)
}

// toAuthorizedView converts the subset definition of a view.
func toAuthorizedView(id string, av *adminpb.AuthorizedView) (storage.AuthorizedView, error) {
	sv := av.GetSubsetView()
	if sv == nil {
		return storage.AuthorizedView{}, fmt.Errorf("%w: authorized view %q needs a subset_view", storage.ErrInvalidArgument, id)
	}
	v := storage.AuthorizedView{Name: id, RowPrefixes: sv.GetRowPrefixes()}
	prefixes := 0
	if len(sv.GetFamilySubsets()) > 0 {
		v.FamilySubsets = make(map[string]storage.FamilySubset, len(sv.GetFamilySubsets()))
	}
	for fam, fs := range sv.GetFamilySubsets() {
		v.FamilySubsets[fam] = storage.FamilySubset{Qualifiers: fs.GetQualifiers(), QualifierPrefixes: fs.GetQualifierPrefixes()}
		prefixes += len(fs.GetQualifierPrefixes())
	}
	if prefixes > maxQualifierPrefixes {
		return v, fmt.Errorf("%w: authorized view %q has %d qualifier prefixes, the limit is %d", storage.ErrInvalidArgument, id, prefixes, maxQualifierPrefixes)
	}
	return v, nil
}

// checkViewFamilies requires every family of the view to exist.
func checkViewFamilies(t *storage.Table, v *storage.AuthorizedView) error {
	for fam := range v.FamilySubsets {
		if t.Family(fam) == nil {
			return fmt.Errorf("%w: authorized view %q names column family %q, which table %q does not have", storage.ErrInvalidArgument, v.Name, fam, t.Name)
		}
	}
	return nil
}

// viewProto renders a view: NAME_ONLY is the name; BASIC adds deletion
// protection and etag; FULL adds the subset.
func viewProto(ref tableRef, v *storage.AuthorizedView, view adminpb.AuthorizedView_ResponseView) *adminpb.AuthorizedView {
	out := &adminpb.AuthorizedView{Name: viewName(ref, v.Name)}
	if view == adminpb.AuthorizedView_NAME_ONLY {
		return out
	}
	out.DeletionProtection, out.Etag = v.DeletionProtection, v.Etag
	if view != adminpb.AuthorizedView_FULL {
		return out
	}
	sv := &adminpb.AuthorizedView_SubsetView{
		RowPrefixes:   v.RowPrefixes,
		FamilySubsets: make(map[string]*adminpb.AuthorizedView_FamilySubsets, len(v.FamilySubsets)),
	}
	for fam, fs := range v.FamilySubsets {
		sv.FamilySubsets[fam] = &adminpb.AuthorizedView_FamilySubsets{Qualifiers: fs.Qualifiers, QualifierPrefixes: fs.QualifierPrefixes}
	}
	out.AuthorizedView = &adminpb.AuthorizedView_SubsetView_{SubsetView: sv}
	return out
}

// GetAuthorizedView returns a view. An unspecified view is FULL: the
// official Go client reads the subset from a default Get.
func (a *tableAdmin) GetAuthorizedView(ctx context.Context, req *adminpb.GetAuthorizedViewRequest) (*adminpb.AuthorizedView, error) {
	ref, id, err := parseView(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	t, err := a.s.e.GetTable(ref.instance, ref.table)
	if err != nil {
		return nil, grpcStatus(err)
	}
	v := t.View(id)
	if v == nil {
		return nil, grpcStatus(fmt.Errorf("%w: authorized view %q of table %q", storage.ErrNotFound, id, ref.table))
	}
	rv := req.GetView()
	if rv == adminpb.AuthorizedView_RESPONSE_VIEW_UNSPECIFIED {
		rv = adminpb.AuthorizedView_FULL
	}
	return viewProto(ref, v, rv), nil
}

// ListAuthorizedViews lists a table's views, NAME_ONLY by default.
func (a *tableAdmin) ListAuthorizedViews(ctx context.Context, req *adminpb.ListAuthorizedViewsRequest) (*adminpb.ListAuthorizedViewsResponse, error) {
	ref, err := parseTable(req.GetParent())
	if err != nil {
		return nil, grpcStatus(err)
	}
	t, err := a.s.e.GetTable(ref.instance, ref.table)
	if err != nil {
		return nil, grpcStatus(err)
	}
	names := make([]string, len(t.Views))
	for i := range t.Views {
		names[i] = t.Views[i].Name
	}
	lo, hi, next, err := page(names, req.GetPageSize(), req.GetPageToken())
	if err != nil {
		return nil, grpcStatus(err)
	}
	rv := req.GetView()
	if rv == adminpb.AuthorizedView_RESPONSE_VIEW_UNSPECIFIED {
		rv = adminpb.AuthorizedView_NAME_ONLY
	}
	resp := &adminpb.ListAuthorizedViewsResponse{NextPageToken: next}
	for i := lo; i < hi; i++ {
		resp.AuthorizedViews = append(resp.AuthorizedViews, viewProto(ref, &t.Views[i], rv))
	}
	return resp, nil
}

// UpdateAuthorizedView changes a view's subset and deletion protection.
// An empty mask updates every field the request sets; a set etag must
// match (ABORTED otherwise).
func (a *tableAdmin) UpdateAuthorizedView(ctx context.Context, req *adminpb.UpdateAuthorizedViewRequest) (*longrunningpb.Operation, error) {
	av := req.GetAuthorizedView()
	ref, id, err := parseView(av.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	paths := req.GetUpdateMask().GetPaths()
	if len(paths) == 0 || slices.Contains(paths, "*") {
		paths = []string{"deletion_protection"}
		if av.GetSubsetView() != nil || slices.Contains(req.GetUpdateMask().GetPaths(), "*") {
			paths = append(paths, "subset_view")
		}
	}
	var subset *storage.AuthorizedView
	setProtection := false
	for _, p := range paths {
		switch p {
		case "subset_view":
			v, err := toAuthorizedView(id, av)
			if err != nil {
				return nil, grpcStatus(err)
			}
			subset = &v
		case "deletion_protection":
			setProtection = true
		default:
			return nil, grpcStatus(fmt.Errorf("%w: cannot update authorized view field %q", storage.ErrInvalidArgument, p))
		}
	}
	var out storage.AuthorizedView
	_, err = a.s.e.AlterTable(ctx, ref.instance, ref.table, func(t *storage.Table) error {
		v, err := findView(t, id, av.GetEtag())
		if err != nil {
			return err
		}
		if subset != nil {
			if err := checkViewFamilies(t, subset); err != nil {
				return err
			}
			v.RowPrefixes, v.FamilySubsets = subset.RowPrefixes, subset.FamilySubsets
		}
		if setProtection {
			v.DeletionProtection = av.GetDeletionProtection()
		}
		v.Etag = a.s.newEtag()
		out = *v
		return nil
	})
	if err != nil {
		return nil, grpcStatus(err)
	}
	op, err := a.s.doneOperation(viewName(ref, id), viewProto(ref, &out, adminpb.AuthorizedView_FULL))
	return op, grpcStatus(err)
}

// findView returns the table's view id, checking etag when it is set.
func findView(t *storage.Table, id, etag string) (*storage.AuthorizedView, error) {
	v := t.View(id)
	if v == nil {
		return nil, fmt.Errorf("%w: authorized view %q of table %q", storage.ErrNotFound, id, t.Name)
	}
	if etag != "" && etag != v.Etag {
		return nil, fmt.Errorf("%w: etag %q of authorized view %q does not match", storage.ErrAborted, etag, id)
	}
	return v, nil
}

// DeleteAuthorizedView removes a view unless it is deletion protected
// (FAILED_PRECONDITION) or the etag does not match (ABORTED).
func (a *tableAdmin) DeleteAuthorizedView(ctx context.Context, req *adminpb.DeleteAuthorizedViewRequest) (*emptypb.Empty, error) {
	ref, id, err := parseView(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	_, err = a.s.e.AlterTable(ctx, ref.instance, ref.table, func(t *storage.Table) error {
		v, err := findView(t, id, req.GetEtag())
		if err != nil {
			return err
		}
		if v.DeletionProtection {
			return fmt.Errorf("%w: authorized view %q is deletion protected", storage.ErrFailedPrecondition, id)
		}
		t.Views = slices.DeleteFunc(t.Views, func(v storage.AuthorizedView) bool { return v.Name == id })
		return nil
	})
	if err != nil {
		return nil, grpcStatus(err)
	}
	return &emptypb.Empty{}, nil
}
