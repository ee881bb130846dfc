-- Question: what AI usage preferences do pages state in their responses? The Content-Usage header
--           (draft-ietf-aipref-attach-05, read with draft-ietf-aipref-vocab-08: train-ai, ai-use
--           and search, y or n), Cloudflare's Content-Signal header and <meta name="content-signal">
--           tags (search, ai-input, ai-train, use), each key with each value.
-- Pages: responses with a 2xx status, as in every signals_* query; each response counts once
-- per (source, key, value), however many times it repeats it.
-- Denominator of share_pages: the crawl's 2xx responses (host_counts).
-- Reads summary_page_ai_preferences (page_signals' rows of these sources, counted by page and
-- host; docs/schema.md) and host_counts.
-- Run from the scan's output folder: duckdb -c ".read ../queries/signals_ai_preferences.sql"
-- Columns: in this order, the shares right after the keys: crawl, form, vocabulary, key, value,
--     share_pages, pages, hosts; one by one:
--   crawl
--   form         content_usage (header), content_signal (header), content_signal_meta (meta tag)
--   vocabulary   aipref-vocab-08 for content_usage; NULL for Content Signals
--   key          train-ai, ai-use, search (content_usage); search, ai-input, ai-train, use (Content
--                Signals); unknown for other keys; NULL for a value that does not parse (every
--                preference unknown)
--   value        y / n (content_usage: NULL when the value is neither, so the preference is
--                unknown); yes / no / immediate / reference / full or as written (Content Signals)
--   pages        2xx responses stating it
--   hosts        distinct hosts of those responses
--   share_pages  pages / the crawl's 2xx responses (6 decimals)
WITH answer AS (
WITH responses_2xx AS (
    SELECT crawl, sum(responses) AS responses
    FROM read_parquet('host_counts/*/*.parquet', hive_partitioning = true)
    WHERE status_class = '2xx'
    GROUP BY crawl
)
SELECT p.crawl, form, vocabulary, key, value, pages, hosts,
    round(pages / r.responses, 6) AS share_pages
FROM read_parquet('summary_page_ai_preferences/*/*.parquet', hive_partitioning = true) p
JOIN responses_2xx r USING (crawl)
)
-- The shares right after the keys, so that a narrow display keeps them in view.
SELECT crawl, form, vocabulary, key, value, share_pages,
    * EXCLUDE (crawl, form, vocabulary, key, value, share_pages)
FROM answer
ORDER BY crawl, form, pages DESC, key, value;
