package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"cloud.google.com/go/bigtable"
	"github.com/bufbuild/protocompile"
	"github.com/jhump/protoreflect/v2/protoprint"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/shale-db/shale/btserver"
)

type stringList []string

func (l *stringList) String() string     { return fmt.Sprint([]string(*l)) }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// CompileProtos compiles .proto files in-process (protocompile) into a
// serialized FileDescriptorSet holding them and everything they import,
// dependencies first. importPaths are the -I directories (none: paths
// are relative to the working directory); google/protobuf/*.proto are
// built in.
func CompileProtos(ctx context.Context, importPaths, files []string) ([]byte, error) {
	c := protocompile.Compiler{
		Resolver:       protocompile.WithStandardImports(&protocompile.SourceResolver{ImportPaths: importPaths}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	res, err := c.Compile(ctx, files...)
	if err != nil {
		return nil, fmt.Errorf("compiling .proto files: %w", err)
	}
	var fds descriptorpb.FileDescriptorSet
	seen := map[string]bool{}
	var add func(f protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		imps := f.Imports()
		for i := 0; i < imps.Len(); i++ {
			add(imps.Get(i).FileDescriptor)
		}
		fds.File = append(fds.File, protodesc.ToFileDescriptorProto(f))
	}
	for _, f := range res {
		add(f)
	}
	return proto.Marshal(&fds)
}

// printProtos prints each file of a descriptor set as .proto source
// (protoprint), each under a "// file: name" line.
func printProtos(fds *descriptorpb.FileDescriptorSet, w io.Writer) error {
	files, err := protodesc.NewFiles(fds)
	if err != nil {
		return err
	}
	var p protoprint.Printer
	for _, fdp := range fds.GetFile() {
		fd, err := files.FindFileByPath(fdp.GetName())
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "// file: %s\n", fd.Path())
		if err := p.PrintProtoFile(fd, w); err != nil {
			return err
		}
	}
	return nil
}

// BundleUsage documents `shale bundle`.
const BundleUsage = `usage: shale bundle <create|update|get|list|delete> [flags]

Manages a table's protobuf schema bundles on a running server through the
Bigtable admin API (the official Go client).

  create --table T --id B (--descriptors FILE | --proto FILE.proto... [-I DIR...])
                                                  upload a FileDescriptorSet (serialized, as from
                                                  protoc --include_imports -o FILE, or in text
                                                  format), or .proto files compiled in-process
                                                  (imports resolved under -I, well-known types built in)
  update --table T --id B (--descriptors FILE | --proto ...) [--ignore-warnings]
                                                  replace it; incompatible changes are refused
                                                  unless --ignore-warnings
  get    --table T --id B [--format proto|textproto] [--out FILE]
                                                  print the bundle as .proto source (default) or
                                                  as a FileDescriptorSet in text format, or write
                                                  its serialized form to FILE
  list   --table T                                print the table's bundle ids
  delete --table T --id B

common flags: --addr (default $BIGTABLE_EMULATOR_HOST, else 127.0.0.1:8086), --project, --instance
(default demo, demo)
`

// BundleCommand runs `shale bundle <args>`, printing to stdout.
func BundleCommand(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("bundle: missing subcommand\n" + BundleUsage)
	}
	sub := args[0]
	fs := flag.NewFlagSet("bundle "+sub, flag.ContinueOnError)
	addr := fs.String("addr", defaultAddr(), "server gRPC address")
	project := fs.String("project", "demo", "project")
	instance := fs.String("instance", "demo", "instance")
	table := fs.String("table", "", "table id")
	id := fs.String("id", "", "schema bundle id")
	descFile := fs.String("descriptors", "", "serialized FileDescriptorSet file (create, update)")
	ignore := fs.Bool("ignore-warnings", false, "apply an incompatible update (update)")
	out := fs.String("out", "", "write the serialized descriptor set to this file (get)")
	format := fs.String("format", "proto", "get: print as .proto source (proto) or a text-format FileDescriptorSet (textproto)")
	var protos, importPaths stringList
	fs.Var(&protos, "proto", ".proto file to compile (create, update; repeatable; relative to an -I directory when -I is set)")
	fs.Var(&importPaths, "I", "import path for --proto (repeatable)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("bundle %s: unexpected arguments %q", sub, fs.Args())
	}
	need := func(names ...string) error {
		for _, n := range names {
			if fs.Lookup(n).Value.String() == "" {
				return fmt.Errorf("bundle %s: --%s is required", sub, n)
			}
		}
		return nil
	}
	switch sub {
	case "create", "update":
		if err := need("table", "id"); err != nil {
			return err
		}
		if (*descFile == "") == (len(protos) == 0) {
			return fmt.Errorf("bundle %s: give either --descriptors or --proto", sub)
		}
	case "get", "delete":
		if err := need("table", "id"); err != nil {
			return err
		}
	case "list":
		if err := need("table"); err != nil {
			return err
		}
	default:
		return fmt.Errorf("bundle: unknown subcommand %q\n%s", sub, BundleUsage)
	}
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(btserver.MaxMessageSize), grpc.MaxCallSendMsgSize(btserver.MaxMessageSize)))
	if err != nil {
		return err
	}
	defer conn.Close()
	ac, err := bigtable.NewAdminClient(ctx, *project, *instance, option.WithGRPCConn(conn))
	if err != nil {
		return err
	}
	defer ac.Close()

	var desc []byte
	if *descFile != "" {
		if desc, err = readDescriptorSet(*descFile); err != nil {
			return err
		}
	} else if len(protos) > 0 {
		if desc, err = CompileProtos(ctx, importPaths, protos); err != nil {
			return err
		}
	}
	conf := bigtable.SchemaBundleConf{TableID: *table, SchemaBundleID: *id, ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: desc}}
	switch sub {
	case "create":
		return ac.CreateSchemaBundle(ctx, &conf)
	case "update":
		return ac.UpdateSchemaBundle(ctx, bigtable.UpdateSchemaBundleConf{SchemaBundleConf: conf, IgnoreWarnings: *ignore})
	case "get":
		info, err := ac.GetSchemaBundle(ctx, *table, *id)
		if err != nil {
			return err
		}
		if *out != "" {
			return os.WriteFile(*out, info.SchemaBundle, 0o644)
		}
		var fds descriptorpb.FileDescriptorSet
		if err := proto.Unmarshal(info.SchemaBundle, &fds); err != nil {
			return fmt.Errorf("bundle get: %v", err)
		}
		fmt.Fprintf(stdout, "// schema bundle %s of table %s, etag %s\n", *id, *table, info.Etag)
		if *format == "proto" {
			return printProtos(&fds, stdout)
		}
		if *format != "textproto" {
			return fmt.Errorf("bundle get: --format is proto or textproto, not %q", *format)
		}
		text, err := prototext.MarshalOptions{Multiline: true}.Marshal(&fds)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s", text)
		return nil
	case "list":
		ids, err := ac.SchemaBundles(ctx, *table)
		if err != nil {
			return err
		}
		for _, b := range ids {
			fmt.Fprintln(stdout, b)
		}
		return nil
	default: // delete
		return ac.DeleteSchemaBundle(ctx, *table, *id)
	}
}

func defaultAddr() string {
	if a := os.Getenv("BIGTABLE_EMULATOR_HOST"); a != "" {
		return a
	}
	return "127.0.0.1:8086"
}

// readDescriptorSet reads a FileDescriptorSet file, serialized (protoc -o)
// or in protobuf text format.
func readDescriptorSet(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &fds); err == nil && len(fds.GetFile()) > 0 {
		return b, nil
	}
	if err := prototext.Unmarshal(b, &fds); err != nil {
		return nil, fmt.Errorf("%s is neither a serialized FileDescriptorSet nor one in text format: %v", path, err)
	}
	return proto.Marshal(&fds)
}
