package pgcatalog

import (
	"sort"
	"strings"
)

// Keywords of PostgreSQL 15 by category (kwlist.h): R reserved, T
// reserved but allowed as a type or function name, C allowed as a column
// name, U unreserved (the common ones).
var keywordLists = map[byte]string{
	'R': `all analyse analyze and any array as asc asymmetric both case cast check collate column constraint
create current_catalog current_date current_role current_time current_timestamp current_user default
deferrable desc distinct do else end except false fetch for foreign from grant group having in initially
intersect into lateral leading limit localtime localtimestamp not null offset on only or order placing
primary references returning select session_user some symmetric table then to trailing true union unique
user using variadic when where window with`,
	'T': `authorization binary collation concurrently cross current_schema freeze full ilike inner is isnull
join left like natural notnull outer overlaps right similar tablesample verbose`,
	'C': `between bigint bit boolean char character coalesce dec decimal exists extract float greatest grouping
inout int integer interval least national nchar none normalize nullif numeric out overlay position
precision real row setof smallint substring time timestamp treat trim values varchar xmlattributes
xmlconcat xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot xmlserialize xmltable`,
	'U': `abort absolute access action add admin after aggregate also alter always asensitive assertion assignment
at atomic attach attribute backward before begin breadth by cache call called cascade cascaded catalog chain characteristics
checkpoint class close cluster columns comment comments commit committed compression configuration conflict
connection constraints content continue conversion copy cost csv cube current cursor cycle data database
day deallocate declare defaults deferred definer delete delimiter delimiters depends depth detach dictionary
disable discard document domain double drop each enable encoding encrypted enum escape event exclude
excluding exclusive execute explain expression extension external family filter finalize first following
force forward function functions generated global granted groups handler header hold hour identity if
immediate immutable implicit import include including increment index indexes inherit inherits inline
input insensitive insert instead invoker isolation key label language large last leakproof level listen
load local location lock locked logged mapping match matched materialized maxvalue merge method minute
minvalue mode month move name names new next nfc nfd nfkc nfkd no normalized nothing notify nowait nulls
object of off oids old operator option options ordinality others over overriding owned owner parallel
parameter parser partial partition passing password plans policy preceding prepare prepared preserve
prior privileges procedural procedure procedures program publication quote range read reassign recheck
recursive ref referencing refresh reindex relative release rename repeatable replace replica reset
restart restrict return returns revoke role rollback rollup routine routines rows rule savepoint schema
schemas scroll search second security sequence sequences serializable server session set sets share show
simple skip snapshot sql stable standalone start statement statistics stdin stdout storage stored strict
strip subscription support sysid system tables tablespace temp template temporary text ties transaction
transform trigger truncate trusted type types uescape unbounded uncommitted unencrypted unknown unlisten
unlogged until update vacuum valid validate validator value varying version view views volatile
whitespace within without work wrapper write xml year yes zone`,
}

// asLabelOnly keywords need AS before a column label.
var asLabelOnly = map[string]bool{"day": true, "filter": true, "hour": true, "minute": true, "month": true,
	"over": true, "second": true, "varying": true, "within": true, "without": true, "year": true,
	"char": true, "character": true, "precision": true}

var catDesc = map[byte]string{'R': "reserved", 'T': "reserved (can be function or type name)",
	'C': "unreserved (cannot be function or type name)", 'U': "unreserved"}

// reservedKeywords are the keywords quote_ident quotes: all but U.
var reservedKeywords = map[string]bool{}

func init() {
	for cat, words := range keywordLists {
		if cat == 'U' {
			continue
		}
		for _, w := range strings.Fields(words) {
			reservedKeywords[w] = true
		}
	}
}

func keywordRows(*evaluator, []Value, []uint32) ([]Value, error) {
	type kw struct {
		word string
		cat  byte
	}
	var all []kw
	for cat, words := range keywordLists {
		for _, w := range strings.Fields(words) {
			all = append(all, kw{w, cat})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].word < all[j].word })
	out := make([]Value, len(all))
	for i, k := range all {
		bare, bareDesc := !asLabelOnly[k.word], "can be bare label"
		if !bare {
			bareDesc = "requires AS"
		}
		out[i] = Value{k: kRecord, names: []string{"word", "catcode", "barelabel", "catdesc", "baredesc"},
			a: []Value{textV(k.word), textV(string(k.cat)), boolV(bare), textV(catDesc[k.cat]), textV(bareDesc)}}
	}
	return out, nil
}
