// BigQuery renders every field of a STRUCT's schema: a field an event did not send is null, or
// [] when REPEATED. The stored JSON holds only what was sent, so rendering adds the rest.
#pragma once

#include <boost/json/value.hpp>

#include "lqe/types.h"

namespace lqe::gateway {

// True when `type` is or holds a record with declared fields (what FillSchemaFields can change).
bool HasRecordFields(const Type& type);
// Adds the fields of `type`'s records that `value` lacks, at every level (after WrapRecords, so
// a REPEATED record is an array of objects).
void FillSchemaFields(boost::json::value& value, const Type& type);

}  // namespace lqe::gateway
