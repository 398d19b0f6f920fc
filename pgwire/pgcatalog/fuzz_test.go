package pgcatalog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzQuery requires that no statement text panics Handles,
// ClearlyPostgres, PrepareWith or Run (errors are fine); the Shale tables
// of fakeSource are relations too. Seeds are the queries of testdata/.
func FuzzQuery(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for _, block := range strings.Split(string(data), "\nquery") {
			if q, _, ok := strings.Cut(block, "\n----"); ok {
				if i := strings.IndexByte(q, '\n'); i >= 0 {
					f.Add(q[i+1:])
				}
			}
		}
	}
	f.Add("SELECT generate_series(1, 3), unnest('{a,b}'::text[]) ORDER BY 1 DESC")
	recoverPanics = false
	f.Fuzz(func(t *testing.T, sql string) {
		Handles(sql)
		ClearlyPostgres(sql)
		src := fakeSource{keyed: true}
		st, err := PrepareWith(context.Background(), src, testSession(), sql, nil)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		args := make([]*string, len(st.ParamOIDs()))
		for i := range args {
			s := "1"
			args[i] = &s
		}
		_, _ = st.Run(ctx, src, testSession(), args)
	})
}
