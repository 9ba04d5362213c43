// The NET functions: NET.HOST, NET.IPV4_TO_INT64 / NET.IPV4_FROM_INT64, NET.IP_FROM_STRING (and
// its SAFE_ form), NET.IP_TO_STRING, NET.IP_NET_MASK and NET.IP_TRUNC, each a bq.* helper
// (migrations 065, 066). NET.REG_DOMAIN and NET.PUBLIC_SUFFIX are refused (no Public Suffix List).
#include "pg/function_table.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;
using K = TypeKind;

}  // namespace

Value EmitNetHost(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kString}, "STRING");
  return MakeValue("bq.net_host(" + args[0].sql + ")", K::kString);
}

Value EmitNetIpv4ToInt64(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kBytes}, "BYTES");
  return MakeValue("bq.net_ipv4_to_int64(" + args[0].sql + ")", K::kInt64);
}

Value EmitNetIpv4FromInt64(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kInt64}, "INT64");
  return MakeValue("bq.net_ipv4_from_int64(" + AsBigint(args[0]) + ")", K::kBytes);
}

Value EmitNetIpFromString(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kString}, "STRING");
  const bool safe = Upper(call.name.name) == "NET.SAFE_IP_FROM_STRING" || call.safe;
  return MakeValue(
      std::string(safe ? "bq.safe_ip_from_string(" : "bq.ip_from_string(") + args[0].sql + ")",
      K::kBytes);
}

Value EmitNetIpToString(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kBytes}, "BYTES");
  return MakeValue("bq.ip_to_string(" + args[0].sql + ")", K::kString);
}

Value EmitNetIpNetMask(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  return MakeValue("bq.ip_net_mask(" + BigintArgOr(call, args, 0, "") + ", " +
                       BigintArgOr(call, args, 1, "") + ")",
                   K::kBytes);
}

Value EmitNetIpTrunc(Emitter& e, const ast::Call& call) {
  const auto args = EmitArgs(e, call);
  RequireArg(call, args, 0, {K::kBytes}, "BYTES");
  return MakeValue("bq.ip_trunc(" + args[0].sql + ", " + BigintArgOr(call, args, 1, "") + ")",
                   K::kBytes);
}

}  // namespace lqe::pg
