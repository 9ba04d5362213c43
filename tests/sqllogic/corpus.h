// The sqllogictest-style corpus files tests/sqllogic/*.test and running one record.
//
//   # name: <file title>            header comments (any '#' line outside a record is a comment)
//   query <name> [rowsort]          a query whose rows are compared after '----'
//   error <name> <regex>            a query that must fail (translation or execution) with a
//                                   message matching the ECMAScript regex
//   params k=v k2=                  bound parameter values (an empty value is the empty string)
//   sandbox logs.all                consumer SQL inside the stored endpoint query
//   endpoint logs.all               the stored endpoint query itself (no SQL lines)
// then the BigQuery SQL, then for queries '----' and one line per row, columns tab-separated
// as PostgreSQL's text output, NULL for SQL NULL. A blank line ends the record.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace lqe::sqllogic {

struct Record {
  std::string file;
  int line = 0;
  std::string name;
  bool expect_error = false;
  std::string error_regex;
  bool rowsort = false;
  std::map<std::string, std::string> params;
  std::string sandbox;   // endpoint name, or empty
  std::string endpoint;  // endpoint name, or empty
  std::string sql;
  std::vector<std::string> rows;
};

std::vector<Record> ReadCorpus();  // every tests/sqllogic/*.test, in file order

struct Outcome {
  bool ok = false;    // translated and executed
  std::string error;  // the translator's one-line error, or PostgreSQL's message
  std::string pg_sql;
  std::vector<std::string> rows;
};

// Translates the record (catalogue from schema/catalogue_seed.tsv, parameters as the endpoint
// YAML declares them: all STRING) and runs it on dsn with TimeZone=UTC as role lqe_gateway.
Outcome Run(const Record& record, const std::string& dsn);
// Translates and runs the record's SQL with prefix (e.g. "EXPLAIN ...") in front.
Outcome Execute(const Record& record, const std::string& dsn, const std::string& prefix);
// The same, but runs EXPLAIN (FORMAT JSON) of the translated SQL: rows[0] is the plan.
Outcome Explain(const Record& record, const std::string& dsn);

}  // namespace lqe::sqllogic
