package pgwire

import "strings"

// Settings are transactional, as in PostgreSQL (guc.c's AtEOXact_GUC and
// AtEOSubXact_GUC): a transaction's SET and RESET last only if it commits.
// The undo record is layered: the transaction's layer, then one for each
// open savepoint, each holding the values of the settings first changed
// while it was innermost, as they were before. An error undoes the
// innermost layer at once (the failed subtransaction, or the whole
// transaction); ROLLBACK TO SAVEPOINT undoes the layers down to the
// savepoint's, RELEASE merges them into the one below, and ROLLBACK
// undoes them all. A commit (COMMIT, or the end of an implicit
// transaction: a Query, a Sync outside a block) forgets them.

// undoLayer is one layer of the undo record.
type undoLayer struct {
	savepoint string // "" for the transaction's own layer
	prior     map[string]priorValue
}

// priorValue is a setting's value before the layer changed it (ok: it had
// one).
type priorValue struct {
	v  string
	ok bool
}

// localPrior is a setting's value before its first SET LOCAL (or a
// transaction mode's before BEGIN or SET TRANSACTION), restored when the
// transaction ends, and the undo layer innermost then: undoing that layer
// undoes the SET LOCAL too.
type localPrior struct {
	v     string
	layer int
}

// noteLocal records the value of a setting about to be SET LOCAL, the
// first time in the transaction.
func (c *conn) noteLocal(key string) {
	if _, saved := c.localUndo[key]; saved {
		return
	}
	if c.localUndo == nil {
		c.localUndo = map[string]localPrior{}
	}
	v, _ := c.set.get(key)
	c.localUndo[key] = localPrior{v, max(len(c.txnUndo)-1, 0)}
}

// noteChange records the value of a setting about to change, the first
// time in the innermost layer.
func (c *conn) noteChange(name string) {
	if len(c.txnUndo) == 0 {
		c.txnUndo = append(c.txnUndo, undoLayer{})
	}
	top := &c.txnUndo[len(c.txnUndo)-1]
	key := strings.ToLower(name)
	if _, saved := top.prior[key]; saved {
		return
	}
	if top.prior == nil {
		top.prior = map[string]priorValue{}
	}
	v, ok := c.set.get(key)
	top.prior[key] = priorValue{v, ok}
}

// undoLayers restores the settings of layers from and above, innermost
// first, and empties them; a SET LOCAL made in them is undone too (the
// transaction's modes are restored when it ends, whatever happened).
func (c *conn) undoLayers(from int) {
	for k, lp := range c.localUndo {
		if lp.layer >= from && !strings.HasPrefix(k, "transaction_") {
			delete(c.localUndo, k)
		}
	}
	for i := len(c.txnUndo) - 1; i >= from; i-- {
		for k, pv := range c.txnUndo[i].prior {
			if !pv.ok {
				delete(c.set.vals, k)
				continue
			}
			if _, report, err := c.set.set(k, pv.v, false); err == nil {
				c.settingChanged(k, report)
			}
		}
		c.txnUndo[i].prior = nil
	}
}

// abortTxn undoes the setting changes of a transaction that rolled back.
func (c *conn) abortTxn() {
	c.undoLayers(0)
	c.txnUndo = nil
}

// abortOnError undoes the changes of the (sub)transaction an error aborts:
// the innermost savepoint's, else the whole transaction's.
func (c *conn) abortOnError() {
	if len(c.txnUndo) > 1 {
		c.undoLayers(len(c.txnUndo) - 1)
		return
	}
	c.abortTxn()
}

// savepointLayer returns the index of the innermost layer of savepoint
// name, or -1.
func (c *conn) savepointLayer(name string) int {
	for i := len(c.txnUndo) - 1; i >= 1; i-- {
		if c.txnUndo[i].savepoint == name {
			return i
		}
	}
	return -1
}

// savepointSettings opens a layer for SAVEPOINT name.
func (c *conn) savepointSettings(name string) {
	if len(c.txnUndo) == 0 {
		c.txnUndo = append(c.txnUndo, undoLayer{})
	}
	c.txnUndo = append(c.txnUndo, undoLayer{savepoint: name})
}

// releaseSettings merges the layers of savepoint name and above into the
// one below (RELEASE SAVEPOINT): the earliest prior value of each setting
// stays.
func (c *conn) releaseSettings(name string) {
	j := c.savepointLayer(name)
	if j < 0 {
		return
	}
	below := &c.txnUndo[j-1]
	for _, l := range c.txnUndo[j:] {
		for k, pv := range l.prior {
			if _, saved := below.prior[k]; !saved {
				if below.prior == nil {
					below.prior = map[string]priorValue{}
				}
				below.prior[k] = pv
			}
		}
	}
	c.txnUndo = c.txnUndo[:j]
	for k, lp := range c.localUndo {
		if lp.layer >= j {
			c.localUndo[k] = localPrior{lp.v, j - 1}
		}
	}
}

// rollbackToSettings undoes the changes since SAVEPOINT name, which stays
// open (ROLLBACK TO SAVEPOINT).
func (c *conn) rollbackToSettings(name string) {
	j := c.savepointLayer(name)
	if j < 0 {
		return
	}
	c.undoLayers(j)
	c.txnUndo = c.txnUndo[:j+1]
}
