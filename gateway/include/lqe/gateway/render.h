// Result rendering from the translator's result schema (the output contract): TIMESTAMP as unix
// microseconds, DATETIME as YYYY-MM-DDTHH:MM:SS[.ffffff], records as one-element arrays at every
// level, keys sorted by name like the reference service.
#pragma once

#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "lqe/types.h"

namespace lqe::gateway {

// Renders one Postgres text value (nullopt = NULL) of BigQuery type `type`.
boost::json::value RenderValue(const Type& type, std::optional<std::string_view> text);
// Wraps every JSON object in a one-element array, recursively; objects directly inside arrays
// are not wrapped, but their object-valued keys are.
boost::json::value WrapRecords(boost::json::value value);
// Appends the JSON of one value: the bytes of SerializeJson(RenderValue(type, text)), with every
// string value redacted when `redact` (as RedactJson would). JSON, RECORD and ARRAY values are
// streamed from the text without building a DOM.
void AppendValue(std::string& out, const Type& type, std::optional<std::string_view> text,
                 bool redact);
// Appends JSON text re-serialised compactly, objects wrapped as WrapRecords does when
// `wrap_records`; text that is not JSON becomes a JSON string, as in RenderValue.
void AppendJsonText(std::string& out, std::string_view text, bool wrap_records, bool redact);
// Appends a finite double as BigQuery's JSON writes it (JavaScript's shortest form: 0.0798, 100,
// 1e+21), not Boost.JSON's 7.98E-2.
void AppendJsonDouble(std::string& out, double d);
// boost::json::serialize, with doubles written by AppendJsonDouble.
std::string SerializeJson(const boost::json::value& value);
// Appends s as a JSON string, escaped exactly as Boost.JSON's serializer does.
void AppendJsonString(std::string& out, std::string_view s);
void AppendJsonEscaped(std::string& out, std::string_view s);  // without the quotes
// "2024-01-02 03:04:05.123456+00" -> microseconds since the epoch.
std::optional<std::int64_t> ParsePgTimestamptz(std::string_view text);

}  // namespace lqe::gateway
