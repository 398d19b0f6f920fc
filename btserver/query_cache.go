package btserver

import (
	"container/list"
	"sync"
)

// stmtCacheSize bounds the prepared statements a server keeps.
const stmtCacheSize = 1024

// stmtCache is a bounded LRU of prepared statements keyed by their
// prepared-query token, so repeated executions of one token do not plan
// again. A miss is never an error: the token holds what is needed to
// prepare again (query_token.go). Tokens expire, so a cached plan lives no
// longer than its token is accepted without a resume token.
type stmtCache struct {
	max int
	mu  struct {
		sync.Mutex
		order *list.List               // front = most recently used; values are *stmtEntry
		byKey map[string]*list.Element // token → element of order
	}
}

type stmtEntry struct {
	key string
	st  Statement
}

func newStmtCache(max int) *stmtCache {
	c := &stmtCache{max: max}
	c.mu.order = list.New()
	c.mu.byKey = make(map[string]*list.Element)
	return c
}

// get returns the statement cached under key, or nil.
func (c *stmtCache) get(key string) Statement {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.mu.byKey[key]
	if !ok {
		return nil
	}
	c.mu.order.MoveToFront(e)
	return e.Value.(*stmtEntry).st
}

// put caches st under key, evicting the least recently used entry when
// full.
func (c *stmtCache) put(key string, st Statement) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.mu.byKey[key]; ok {
		e.Value.(*stmtEntry).st = st
		c.mu.order.MoveToFront(e)
		return
	}
	c.mu.byKey[key] = c.mu.order.PushFront(&stmtEntry{key: key, st: st})
	for c.mu.order.Len() > c.max {
		last := c.mu.order.Back()
		c.mu.order.Remove(last)
		delete(c.mu.byKey, last.Value.(*stmtEntry).key)
	}
}

// len returns the number of cached statements.
func (c *stmtCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mu.order.Len()
}
