package storage

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestDurabilityKill proves invariant S5: it runs a child process that
// writes rows with several concurrent writers and prints "ack <row>" after
// each write returns, kills it with SIGKILL in the middle of the load,
// reopens the store and requires every acknowledged row to be there.
func TestDurabilityKill(t *testing.T) {
	if dir := os.Getenv("SHALE_DURABILITY_CHILD"); dir != "" {
		durabilityChild(dir)
		return
	}
	if testing.Short() {
		t.Skip("spawns a child process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDurabilityKill$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SHALE_DURABILITY_CHILD="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]bool{}
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		line := sc.Text()
		row, ok := strings.CutPrefix(line, "ack ")
		if !ok {
			continue
		}
		acked[row] = true
		if len(acked) == 300 && !killed {
			// Kill mid-load: writers are still committing.
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	_ = cmd.Wait()
	if !killed {
		t.Fatalf("child exited before the kill after %d acks", len(acked))
	}

	e, err := Open(dir, Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tgt := Target{Instance: "projects/p/instances/i", Table: "durable"}
	missing := 0
	for row := range acked {
		r, err := e.ReadRow(context.Background(), tgt, []byte(row), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r == nil || len(r.Cells) != 2 || string(r.Cells[0].Value) != "v-"+row {
			missing++
			if missing < 5 {
				t.Errorf("acknowledged row %q lost or damaged after kill -9: %v", row, r)
			}
		}
	}
	if missing > 0 {
		t.Fatalf("%d of %d acknowledged rows lost", missing, len(acked))
	}
	if err := e.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d acknowledged rows survived kill -9", len(acked))
}

// durabilityChild writes until killed.
func durabilityChild(dir string) {
	e, err := Open(dir, Options{SweepInterval: -1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx := context.Background()
	inst := "projects/p/instances/i"
	if _, err := e.CreateTable(ctx, inst, "durable", TableSpec{Families: []Family{{Name: "cf"}}}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	tgt := Target{Instance: inst, Table: "durable"}
	var mu sync.Mutex
	w := bufio.NewWriter(os.Stdout)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				row := fmt.Sprintf("w%d#%08d", g, i)
				err := e.MutateRow(ctx, tgt, []byte(row), []Mutation{
					{Kind: SetCell, Family: "cf", Qualifier: []byte("a"), Timestamp: 1000, Value: []byte("v-" + row)},
					{Kind: SetCell, Family: "cf", Qualifier: []byte("b"), Timestamp: 1000, Value: make([]byte, 100)},
				})
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(2)
				}
				mu.Lock()
				fmt.Fprintf(w, "ack %s\n", row)
				w.Flush()
				mu.Unlock()
			}
		}()
	}
	go func() {
		time.Sleep(60 * time.Second)
		os.Exit(3) // never reached when the parent kills us
	}()
	wg.Wait()
}
