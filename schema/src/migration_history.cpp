#include "lqe/schema/migration_history.h"

#include <set>
#include <string_view>

namespace lqe::schema {
namespace {

std::string Version(int version) {
  std::string text = std::to_string(version);
  return std::string(text.size() < 3 ? 3 - text.size() : 0, '0') + text;
}

}  // namespace

const std::vector<Migration>& PreBaselineMigrations() {
  // clang-format off
  static const std::vector<Migration> chain = {
      {1, "001_log_tables.sql", {},
       "29515ec8a4300f89bbdebb788bc61ca5cfbc6c770a5cdf8b8236cfd4c65749c9"},
      {2, "002_field_catalogue.sql", {},
       "555202ebae4d32b1c79183cd15823858eb25db9947b496ac1c72b5f528899ed1"},
      {3, "003_partition_functions.sql", {},
       "a876d0efa60a00ebf749d262f37ed26228eb64db60f24b98907dcc38631879e3"},
      {4, "004_gateway_role.sql", {},
       "c3b807f13f9f82c476df7a1ed28b10fa5ebc62ee892390bae43b7be9decd0cc1"},
      {5, "005_gateway_role_hardening.sql", {},
       "198c8ad354394c0c901b8736ce2a1ddb0e1d0792854bae2e51ae5433d1038d99"},
      {10, "010_partition_creation_race.sql", {},
       "5da2f1b8db38ebe35b34700016fee55f9e5cbf35553da4bc9eab4d628ee04195"},
      {11, "011_unique_event_ids.sql", {},
       "90f70b6bc00ab924537b48f31989c37b84cea0c49e76dd0a920e1e790876c26b"},
      {12, "012_gateway_role_per_database.sql", {},
       "1c4ab725f2047314bd0407adc40e9a50d304c5b55ea9fb21b07f8765e7a4ca7b"},
      {13, "013_comments.sql", {},
       "9681bb1bcd663a5e2d21930e39171425e7a4cba036297d339c9de2ad91017f5c"},
      {14, "014_ingest_event_model.sql", {},
       "a735d925589f52ea75ad38939e2213ca8390ea8d5ff584a7497daaeeeaf306b7"},
      {15, "015_catalogue_real_shipper_types.sql", {},
       "9ded22746ecb04855fadf7fd14a5781d88577779e119f41935bd73b7c6b83056"},
      {16, "016_ingest_role.sql", {},
       "77243ceb352da5a28698cef0d520cd0768d52553ea9c0e07d5411890d832805a"},
      {20, "020_edge_api_rollup.sql", {},
       "cf61b18149c99af305dab2567c4cc89115bf98b550b71ee0af2328b94e4c45ff"},
      {21, "021_promoted_fields.sql", {},
       "d82a430c9d3029e079674991a4a9fb17b5bea63910707d24b4176e744e8b5b98"},
      {22, "022_ingest_role_reads_derived_data.sql", {},
       "d32fd15daa0bc2834547cb4dd1220fe9c8f472c0499583ff64ce2d7d9d298ee8"},
      {23, "023_promoted_fields_under_metadata.sql", {},
       "e987e3afe20c62156a7b16a9b8f4949d58b0e8c16de6ea1f916eea7d565b05a9"},
      {24, "024_declared_rollups.sql", {},
       "26961e826561137be6010123cf349c0a7965ac25094438c79936051737574bfb"},
      {25, "025_edge_rollup_pg_trgm.sql", {},
       "4ddeba6622487845e9567a5d3bce0972b213536a91bc3904587b8aca280ce5c4"},
      {26, "026_edge_rollup_lowercase_check.sql", {},
       "2317b8359dbfc5c8657395ba472e7685df8d02f609d522feec6b4ecabdfc957c"},
      {27, "027_promoted_columns.sql", {},
       "9a532fdb2aca8a8079d1914008d7eb29c62f1432d4c322f1fde3ee3697ea68fc"},
      {28, "028_promoted_nested_fields.sql", {},
       "a4be1d75119370aa1296d11ee9989e417a6e8e053b3d088252da65597eff8b37"},
      {29, "029_promoted_indexes_plain_desc.sql", {},
       "04634ffadc7c6fc5a1ead8b593b8ada97cb91dae1883b1e82ea015469c7607cf"},
      {30, "030_foreign_partitions.sql", {},
       "bd9ae53cedb4d45dedabb100a0287252c692781070ae7f74795d516195adf1cb"},
      {31, "031_rollups_on_foreign_partitions.sql", {},
       "b59a8434559283c6ddd2f29218e8fc8061a830a904958e2047c217dab1126b5a"},
      {32, "032_partitions_of_log_tables_only.sql", {},
       "1a0fe305bec8a84da718bd0b6202dc4c253786a0fed1c3d5be630350e741b4c6"},
      {33, "033_project_timestamp_indexes_desc.sql", {},
       "e6afe5da9c756dc1d229a19c71220f7b6328e7f2d766f8373d4baddef427963b"},
      {34, "034_routed_inserts_only_with_rollups.sql", {},
       "111755c3b590420252f2a21999eaf5b3b603c96d6b0bb6d9e48e81271b751c66"},
      {35, "035_edge_rollup_delta.sql", {},
       "7afb65468c89df5e71019a5d47dea9c08a0e87ce80278e4669914277b0f5244e"},
      {40, "040_count_by_bucket.sql", {},
       "37fa1095105bb44aa62521dd67042924b47f4693b76f48b14f452ad9f4300392"},
      {41, "041_promoted_differs_indexes.sql", {},
       "a0d14f8d599d461c82548bd0eb96612af2e70995235c751e6e572560c51d7069"},
      {42, "042_edge_rollup_rows_from_writer.sql", {},
       "07fb59342c358ff653ebce5bac767362a966e2a6f9ff663d94a00441e8abace4"},
      {50, "050_bq_functions.sql", {},
       "08781f4de3cc84051ba33db6b09439b5619769df35cf8d3c99519889213d9cef"},
      {51, "051_bq_functions_core.sql", {},
       "462794c8a08238c9c72a495fb303f4c34a0faecac5f27840b04c548b4965bc10"},
      {52, "052_bq_size_caps.sql", {},
       "59f6f2d00146f922398f7542e8a7f7c16147a9ff1a74b66048be460c53700753"},
      {53, "053_bq_parse_time.sql", {},
       "c3416b88a909a93a0d7216a9ba16359ae3f86e5b5f3a0422f891acad78f23ae4"},
      {54, "054_bq_text.sql", {},
       "eabbee73b5770b2d82ce498ae9cd3d8b0b9be909b8d50771aec5f13994200244"},
      {55, "055_bq_format.sql", {},
       "fd70f89b7709212daea488f5a03ed58e045de5e4e5dd0b5c71b0e0f94f2ace62"},
      {60, "060_bq_json_reads.sql", {},
       "132e70f33653bcee0c144ca21d42a12dfeea67adeac7beaf1d5469bdd93e8fec"},
      {61, "061_bq_json_records.sql", {},
       "b58cc8c3a08b457f644bced535a79386de19f0fc8980a457ee14c1d6553cedf8"},
      {62, "062_bq_regexp_replace.sql", {},
       "f2edebda7d0da5d5584666ae628dfa7f60ec7bcbd38b73b4c0b52e4af917a6b3"},
      {63, "063_bq_sum_int64.sql", {},
       "91452325e6c3ad52b0096e5bf05809e36f3fb475a66a2eb13443b4a276d73756"},
      {64, "064_bq_regexp_replace_fast.sql", {},
       "7e281cddc1ccac0435ec74b626772ae827489a0c38546ec99c6e189c969ecd46"},
      {65, "065_bq_fidelity_functions.sql", {},
       "eb857115023a44ab4c9a453cde0e6833c5d52ad180d10336337bf050fbb0409f"},
      {66, "066_bq_search_net_functions.sql", {},
       "51c78c7b42e169460d74febe37f71deb814a0861d8f5eb9a53491b0c7852345b"},
      {67, "067_bq_lax_json.sql", {},
       "9107cd3fd7751274c62c0e5275d84b9e829607f80e317179b8dfc7aff6d85b9b"},
      {68, "068_bq_parse_numeric.sql", {},
       "c26325982ec38d5448ffdf79a8561fe1ac2df1b357b6a04bb017799a0c29b814"},
      {69, "069_bq_json_converters.sql", {},
       "fa1798a6caadd505f7cc74697a44f263e9454d03b24a24573b519bf60421b0fb"},
      {70, "070_bq_timestamp_constant.sql", {},
       "2500c142e1669306b425b1ddc3ba960f5ea0c4ca27c6962c37cfb515539b5954"},
  };
  // clang-format on
  return chain;
}

bool IsPreBaselineChain(const AppliedMigrations& applied) {
  std::vector<std::string> missing;
  std::vector<std::string> changed;
  int found = 0;
  for (const auto& m : PreBaselineMigrations()) {
    const auto it = applied.find(m.version);
    if (it == applied.end() || it->second.name != m.name) {
      missing.push_back(m.name);
      continue;
    }
    ++found;
    if (it->second.checksum != m.checksum) changed.push_back(m.name);
  }
  if (found == 0) return false;
  const auto list = [](const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
    return out;
  };
  const std::string chain = "the " + std::to_string(PreBaselineMigrations().size()) +
                            " migrations lqe had before its schema baseline";
  if (!changed.empty()) {
    throw SchemaError("this database was migrated with " + chain + ", but " + list(changed) +
                      " differ from the released files (checksum): its schema is not the one "
                      "the baseline stands for; nothing was applied");
  }
  if (!missing.empty()) {
    throw SchemaError("this database holds " + std::to_string(found) + " of " + chain +
                      " (missing: " + list(missing) +
                      "): migrate it to the end of that chain with the lqe it was set up with, "
                      "then run this lqe migrate; nothing was applied");
  }
  if (applied.size() != PreBaselineMigrations().size()) {
    for (const auto& [version, row] : applied) {
      bool known = false;
      for (const auto& m : PreBaselineMigrations()) known = known || m.version == version;
      if (!known) {
        throw SchemaError("this database was migrated with " + chain + " and also holds " +
                          row.name + " (version " + Version(version) +
                          "), which none of them is; nothing was applied");
      }
    }
  }
  return true;
}

void CheckAppendOnly(const std::vector<Migration>& migrations, const AppliedMigrations& applied) {
  std::set<int> known;
  for (const auto& m : migrations) known.insert(m.version);
  for (const auto& [version, row] : applied) {
    if (known.count(version) == 0) {
      throw SchemaError("the database has migration " + row.name +
                        " applied, which this lqe "
                        "does not have: it was migrated by a newer lqe; run that one (nothing "
                        "was applied)");
    }
  }
  const int highest = applied.empty() ? 0 : applied.rbegin()->first;
  for (const auto& m : migrations) {
    const auto it = applied.find(m.version);
    if (it == applied.end()) {
      if (m.version < highest) {
        throw SchemaError("migration " + m.name + " is not applied, but the database has " +
                          applied.rbegin()->second.name +
                          ": migrations are append-only, so a "
                          "new one must be numbered above " +
                          Version(highest) + " (nothing was applied)");
      }
      continue;
    }
    if (it->second.name != m.name) {
      throw SchemaError("migration " + Version(m.version) + " was applied as " + it->second.name +
                        " but is now " + m.name +
                        ": applied migrations may not be renamed or "
                        "replaced (nothing was applied)");
    }
    if (it->second.checksum != m.checksum) {
      throw SchemaError("migration " + m.name + " was changed after it was applied: recorded " +
                        "checksum " + it->second.checksum + ", embedded " + m.checksum +
                        " (nothing was applied)");
    }
  }
}

}  // namespace lqe::schema
