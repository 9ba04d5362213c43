// A fresh, empty database on the throwaway cluster that deploy/test.sh starts, dropped at the end.
// Integration tests fail (not skip) when LQE_TEST_DSN is unset: a silently skipped suite hides
// breakage.
#pragma once

#include <string>

namespace lqe::testing {

class TestDatabase {
 public:
  // Creates database "lqe_test_<tag>_<pid>_<n>" from the server in LQE_TEST_DSN.
  explicit TestDatabase(const std::string& tag);
  ~TestDatabase();
  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;

  const std::string& dsn() const { return dsn_; }  // superuser DSN of the new database
  const std::string& name() const { return name_; }
  // The server's DSN (LQE_TEST_DSN) with the database replaced by `database`.
  static std::string DsnFor(const std::string& database);
  // Backends of this database running a statement that contains `fragment`, other than the one
  // asking.
  int ActiveQueries(const std::string& fragment) const;
  // Polls (25 ms steps, 5 s at most) until ActiveQueries(fragment) is `count`; returns the last
  // count seen.
  int WaitForActiveQueries(const std::string& fragment, int count) const;

 private:
  std::string name_;
  std::string dsn_;
};

// Absolute path of a file in the source tree, e.g. SourcePath("schema/catalogue_seed.tsv").
std::string SourcePath(const std::string& relative);
// The whole file as bytes; empty when it cannot be read (callers assert on what they expect).
std::string ReadFileText(const std::string& path);
// Path of the built lqe binary.
std::string LqeBinary();

}  // namespace lqe::testing
