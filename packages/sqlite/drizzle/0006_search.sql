-- The search index (issue 14): one row per live person or organisation, rowid = records.rid.
-- `body` holds core's searchDocument (words already folded in JS, so the tokenizer only
-- splits them). Prefix indexes make `term*` queries cheap. Kept by `apply` in the same
-- transaction as the record; rows of records written before this migration are added on
-- open (search.ts, backfillSearch). The flock and type are checked on the joined record.
CREATE VIRTUAL TABLE IF NOT EXISTS `record_search` USING fts5(`body`, tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2 3');
