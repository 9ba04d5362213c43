// Ids for events that arrive without one, derived from the delivery that carried them instead of
// drawn at random. Sending the same bytes again (a shipper retrying a batch whose answer was
// lost, `lqe load` run twice on one file) gives every event the same id again, and the writers
// never store an (id, timestamp) twice, so a retry cannot duplicate. Two identical events inside
// one delivery keep distinct ids: the id includes the event's position.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lqe::schema {

std::array<unsigned char, 32> Sha256(std::string_view data);

class DeliveryIds {
 public:
  // scope: where the events go (the table); delivery: the bytes as received (a request body
  // before decompression, or one NDJSON line). Both are read at the first At, so they must live
  // until then; a delivery whose events all carry their own ids is never hashed.
  DeliveryIds(std::string_view scope, std::string_view delivery);
  // The id of the event at `position` in the delivery (an array index, or a line number): a UUID
  // in the 8-4-4-4-12 form, version 8 (RFC 9562, vendor-specific) from SHA-256.
  [[nodiscard]] std::string At(std::uint64_t position) const;

 private:
  std::string_view scope_;
  std::string_view delivery_;
  mutable std::optional<std::array<unsigned char, 32>> digest_;
};

}  // namespace lqe::schema
