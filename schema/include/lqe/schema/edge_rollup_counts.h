// The edge rollups' counting of 005_edge_rollup.sql, done by the writer: what
// logs.add_edge_rollup_rows makes of a batch's rows (delta rows per UTC minute and URL prefix, the
// inner plain trigrams of the URL rests per UTC day), made in C++ from the strings the writer holds
// anyway, so PostgreSQL only stores the result. Written by hand: it must reproduce three SQL
// expressions exactly (logs.url_prefix's regex, strpos, and pg_trgm's show_trgm as
// logs.url_rest_trigrams filters it), and BatchWriter checks them against the database before using
// it (EdgeRollupRulesMatch).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lqe/base/string_hash.h"

namespace lqe::schema {

class PgConn;

// logs.url_prefix: the URL up to its path, query or fragment (`scheme://host[:port]`), or "" when
// no "//" comes before the first '/', '?' or '#'.
std::string_view EdgeUrlPrefix(std::string_view url);
// The trigrams logs.url_rest_trigrams gives of `text`: every three consecutive ASCII letters or
// digits, lower-cased (pg_trgm hashes a trigram with a multibyte character, which the function
// filters out, and pads words with blanks, which it filters out too).
std::set<std::string> EdgeRestTrigrams(std::string_view text);

class EdgeRollupCounts {
 public:
  // One written row with a request URL. Each distinct (day, URL rest) is cut into trigrams once.
  void Add(std::int64_t ts_micros, std::string_view url, std::optional<std::string_view> path);
  // The nine array literals of logs.add_written_edge_rollup_counts, in its parameter order.
  std::vector<std::optional<std::string>> Arguments();

 private:
  // Keyed by the minute's 8 bytes followed by the URL prefix (no allocation to look one up):
  // requests, /rest, /storage, /auth, /realtime.
  std::unordered_map<std::string, std::array<std::int64_t, 5>, StringHash, std::equal_to<>>
      minutes_;
  std::string key_;
  // (UTC day, rest) pairs already cut into trigrams, keyed like minutes_.
  std::unordered_set<std::string, StringHash, std::equal_to<>> rests_;
  // Day number << 24 | the trigram's three bytes; sorted and made unique in Arguments().
  std::vector<std::uint64_t> trigrams_;
};

// Whether the database's logs.url_prefix and logs.url_rest_trigrams agree with the functions
// above on probes that tell the locale-dependent cases apart (upper-case letters, Turkish I,
// letters outside ASCII, separators).
bool EdgeRollupRulesMatch(PgConn& conn);

}  // namespace lqe::schema
