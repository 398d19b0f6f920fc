package btserver

import (
	"context"
	"fmt"
	"strings"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"cloud.google.com/go/longrunning/autogen/longrunningpb"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/shale-db/shale/storage"
)

// The Instance Admin calls clients need: instances (any project and
// instance are accepted and created on first use) and one synthetic,
// always-ready cluster per instance. Everything else is UNIMPLEMENTED.

// clusterID is the id of an instance's single synthetic cluster.
func clusterID(instance string) string { return instanceID(instance) + "-c1" }

// instanceIDPattern is the shape of instance ids the official clients
// accept.
func validInstanceID(id string) bool {
	if len(id) < 1 || len(id) > 33 || id[0] < 'a' || id[0] > 'z' {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func instanceProto(in *storage.Instance) *adminpb.Instance {
	name := in.DisplayName
	if name == "" {
		name = instanceID(in.Name)
	}
	return &adminpb.Instance{
		Name:        in.Name,
		DisplayName: name,
		State:       adminpb.Instance_READY,
		Type:        adminpb.Instance_PRODUCTION,
		CreateTime:  timestampProto(in.CreateTime),
	}
}

func clusterProto(instance string) *adminpb.Cluster {
	return &adminpb.Cluster{
		Name:               instance + "/clusters/" + clusterID(instance),
		Location:           projectOf(instance) + "/locations/local",
		State:              adminpb.Cluster_READY,
		ServeNodes:         1,
		DefaultStorageType: adminpb.StorageType_SSD,
	}
}

// CreateInstance creates an instance (ALREADY_EXISTS if it exists, which
// includes one created by first use) and answers a done operation.
func (a *instanceAdmin) CreateInstance(ctx context.Context, req *adminpb.CreateInstanceRequest) (*longrunningpb.Operation, error) {
	project, err := parseProject(req.GetParent())
	if err != nil {
		return nil, grpcStatus(err)
	}
	id := req.GetInstanceId()
	if !validInstanceID(id) {
		return nil, grpcStatus(fmt.Errorf("%w: invalid instance id %q", storage.ErrInvalidArgument, id))
	}
	in, err := a.s.e.CreateInstance(ctx, project+"/instances/"+id, req.GetInstance().GetDisplayName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	op, err := a.s.doneOperation(in.Name, instanceProto(in))
	return op, grpcStatus(err)
}

// GetInstance returns an instance, creating it on first use.
func (a *instanceAdmin) GetInstance(ctx context.Context, req *adminpb.GetInstanceRequest) (*adminpb.Instance, error) {
	name, err := parseInstance(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	in, err := a.s.e.EnsureInstance(ctx, name)
	if err != nil {
		return nil, grpcStatus(err)
	}
	return instanceProto(in), nil
}

// ListInstances lists a project's instances.
func (a *instanceAdmin) ListInstances(ctx context.Context, req *adminpb.ListInstancesRequest) (*adminpb.ListInstancesResponse, error) {
	project, err := parseProject(req.GetParent())
	if err != nil {
		return nil, grpcStatus(err)
	}
	var names []string
	byName := map[string]*storage.Instance{}
	for _, in := range a.s.e.ListInstances() {
		if strings.HasPrefix(in.Name, project+"/instances/") {
			names = append(names, in.Name)
			byName[in.Name] = in
		}
	}
	lo, hi, next, err := page(names, 0, req.GetPageToken())
	if err != nil {
		return nil, grpcStatus(err)
	}
	resp := &adminpb.ListInstancesResponse{NextPageToken: next}
	for _, n := range names[lo:hi] {
		resp.Instances = append(resp.Instances, instanceProto(byName[n]))
	}
	return resp, nil
}

// DeleteInstance deletes an instance and its tables; deletion-protected
// tables make it FAILED_PRECONDITION.
func (a *instanceAdmin) DeleteInstance(ctx context.Context, req *adminpb.DeleteInstanceRequest) (*emptypb.Empty, error) {
	name, err := parseInstance(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	if err := a.s.e.DeleteInstance(ctx, name); err != nil {
		return nil, grpcStatus(err)
	}
	return &emptypb.Empty{}, nil
}

// ListClusters answers the instance's synthetic cluster.
func (a *instanceAdmin) ListClusters(ctx context.Context, req *adminpb.ListClustersRequest) (*adminpb.ListClustersResponse, error) {
	name, err := parseInstance(req.GetParent())
	if err != nil {
		return nil, grpcStatus(err)
	}
	if _, err := a.s.e.EnsureInstance(ctx, name); err != nil {
		return nil, grpcStatus(err)
	}
	return &adminpb.ListClustersResponse{Clusters: []*adminpb.Cluster{clusterProto(name)}}, nil
}

// GetCluster answers the instance's synthetic cluster, NOT_FOUND for any
// other id.
func (a *instanceAdmin) GetCluster(ctx context.Context, req *adminpb.GetClusterRequest) (*adminpb.Cluster, error) {
	name, id, err := parseCluster(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	if id != clusterID(name) {
		return nil, grpcStatus(fmt.Errorf("%w: cluster %q (Shale has one cluster per instance, %q)", storage.ErrNotFound, id, clusterID(name)))
	}
	if _, err := a.s.e.EnsureInstance(ctx, name); err != nil {
		return nil, grpcStatus(err)
	}
	return clusterProto(name), nil
}
