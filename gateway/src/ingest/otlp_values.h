// OTLP's AnyValue and attribute lists as the JSON that stored events hold: string, bool, int (a
// number), double, array (an array), kvlist (an object), bytes (base64 text). An attribute list
// becomes an object whose dotted keys are nested ("http.request.method" -> http.request.method),
// so the keys read back as written through BigQuery paths and logs.otel's flattened attributes.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <string>
#include <string_view>

#include "lqe/otlp/common.pb.h"

namespace lqe::gateway::ingest::otlp {

using KeyValues = google::protobuf::RepeatedPtrField<opentelemetry::proto::common::v1::KeyValue>;

// An unset AnyValue (OTLP's empty value) is JSON null.
boost::json::value ToJson(const opentelemetry::proto::common::v1::AnyValue& value,
                          const boost::json::storage_ptr& storage = {});

// Each key split at its dots into nested objects. A dotted key whose path meets a value that is
// not an object (both "a" = 1 and "a.b" = 2 sent) is kept whole, dots included, so nothing is
// lost. A key sent twice (OTLP forbids it, some senders do it) keeps its last value.
boost::json::object AttributesToJson(const KeyValues& attributes,
                                     const boost::json::storage_ptr& storage = {});

// Lower-case hexadecimal, as OTLP writes trace and span ids.
std::string Hex(std::string_view bytes);
std::string Base64(std::string_view bytes);

}  // namespace lqe::gateway::ingest::otlp
