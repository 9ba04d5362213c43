// pino-logflare (npm, unmodified) against `lqe serve`: a node process logs lines with pino through
// the pino-logflare transport pointed at lqe with `apiBaseUrl`; every line is then found through
// the `function_logs` CTE of logs.all with its fields. The npm packages come from
// deploy/install-ingest-clients.sh; without them this test fails, it never skips.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "ingest_server.h"

namespace lqe::ingest_clients {
namespace {

using gateway::testing::kTestKey;

// pino-logflare posts batches of 10 here; the client logs kLines + 1 lines (a multiple of 10, see
// pino_client.js on the last batch).
constexpr int kLines = 29;

const boost::json::object& First(const boost::json::value& records) {
  return records.as_array().at(0).as_object();
}

TEST(PinoLogflareTest, LinesLoggedWithPinoAreFoundThroughLogsAll) {
  const std::string client = lqe::testing::SourcePath("tests/ingest_clients/pino_client.js");
  ASSERT_TRUE(std::filesystem::exists(
      lqe::testing::SourcePath("tests/ingest_clients/node_modules/pino-logflare/package.json")))
      << "pino-logflare is not installed: run deploy/install-ingest-clients.sh";

  lqe::testing::TestDatabase db("pino");
  // A source of the user's own, with a space in its name (sent percent-encoded by the client).
  IngestServer server(db, "sources:\n  - {name: 'pino app', table: function_events}\n");
  ASSERT_TRUE(server.Up()) << server.Log();

  const std::string run_id = "run-" + std::to_string(getpid());
  ChildProcess node(
      {"node", client, server.BaseUrl(), kTestKey, "pino app", std::to_string(kLines), run_id});
  // The client ends its transport when its stdin closes: once every line has arrived (see
  // pino_client.js on why), or after 60 s without them.
  int arrived = 0;
  for (int i = 0; i < 600 && arrived < kLines + 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const boost::json::array count = server.LogsAll("select count(*) as n from function_logs");
    arrived = count.size() == 1 ? static_cast<int>(count[0].at("n").to_number<std::int64_t>()) : 0;
  }
  node.CloseStdin();
  const ProcessResult pino = node.Wait(30);
  ASSERT_EQ(pino.exit_code, 0) << pino.output << "\n" << server.Log();
  EXPECT_EQ(pino.output, "pino_client: logged 30 lines\n");
  ASSERT_EQ(arrived, kLines + 1) << server.Log();

  // Whole rows: metadata comes back as records-as-arrays, every field pino-logflare sent.
  const boost::json::array rows = server.LogsAll(
      "select timestamp, id, event_message, metadata from function_logs order by timestamp");
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(kLines + 1));
  std::set<std::string> messages;
  std::set<std::string> ids;
  for (const auto& value : rows) {
    const auto& row = value.as_object();
    messages.insert(std::string(row.at("event_message").as_string()));
    ids.insert(std::string(row.at("id").as_string()));
    const auto& metadata = First(row.at("metadata"));
    EXPECT_EQ(metadata.at("project_ref"), "default") << boost::json::serialize(row);
    EXPECT_EQ(metadata.at("run_id"), run_id.c_str());
    // pino's hostname and pid go into metadata.context.
    const auto& context = First(metadata.at("context"));
    EXPECT_TRUE(context.at("pid").is_int64()) << boost::json::serialize(context);
    EXPECT_TRUE(context.at("host").is_string()) << boost::json::serialize(context);
    // The timestamp is pino's epoch milliseconds, answered as unix microseconds.
    ASSERT_TRUE(row.at("timestamp").is_int64()) << boost::json::serialize(row);
    EXPECT_EQ(std::to_string(row.at("timestamp").as_int64()).size(), 16U);
    EXPECT_EQ(row.at("timestamp").as_int64() % 1000, 0);
  }
  EXPECT_EQ(ids.size(), rows.size());
  for (int i = 0; i <= kLines; ++i) {
    EXPECT_TRUE(messages.contains("pino line " + std::to_string(i))) << i;
  }

  // A line's own fields, nested objects included, through the CTE's columns.
  const boost::json::array line7 = server.LogsAll(
      "select event_message, metadata from function_logs where event_message = 'pino line 7'");
  ASSERT_EQ(line7.size(), 1U);
  const auto& m7 = First(line7[0].as_object().at("metadata"));
  EXPECT_EQ(m7.at("line"), 7);
  EXPECT_EQ(First(m7.at("user")).at("id"), "u-7");
  EXPECT_EQ(m7.at("level"), "info");

  // pino's warn level arrives as pino-logflare's word "warning", typed STRING by the catalogue.
  const boost::json::array warnings = server.LogsAll(
      "select event_message from function_logs cross join unnest(metadata) as m "
      "where m.level = 'warning' order by event_message");
  ASSERT_EQ(warnings.size(), 2U);
  EXPECT_EQ(warnings[0].as_object().at("event_message"), "pino line 19");
  EXPECT_EQ(warnings[1].as_object().at("event_message"), "pino line 9");

  // A logged Error keeps its type, message and stack under metadata.err.
  const boost::json::array errors = server.LogsAll(
      "select event_message, metadata from function_logs cross join unnest(metadata) as m "
      "where m.level = 'error'");
  ASSERT_EQ(errors.size(), 1U);
  EXPECT_EQ(errors[0].as_object().at("event_message"), "pino line 29");
  const auto& err = First(First(errors[0].as_object().at("metadata")).at("err"));
  EXPECT_EQ(err.at("type"), "Error");
  EXPECT_EQ(err.at("message"), "disk full");
  EXPECT_NE(std::string(err.at("stack").as_string()).find("Error: disk full"), std::string::npos);
}

}  // namespace
}  // namespace lqe::ingest_clients
