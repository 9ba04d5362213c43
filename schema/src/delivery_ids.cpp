#include "lqe/schema/delivery_ids.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <initializer_list>
#include <memory>
#include <string>

namespace lqe::schema {

namespace {

// SHA-256 of the concatenation of `parts`, without concatenating them.
std::array<unsigned char, 32> Sha256Of(std::initializer_list<std::string_view> parts) {
  // OpenSSL 3's one-shot SHA256() looks the algorithm up in its provider table on every call;
  // every request hashes its key, so the algorithm is fetched once and each thread keeps a context.
  static EVP_MD* const sha256_algorithm = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  thread_local const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context(EVP_MD_CTX_new(),
                                                                                &EVP_MD_CTX_free);
  std::array<unsigned char, 32> digest{};
  unsigned int size = 0;
  bool ok = sha256_algorithm != nullptr && context != nullptr &&
            EVP_DigestInit_ex2(context.get(), sha256_algorithm, nullptr) == 1;
  for (std::string_view part : parts) {
    ok = ok && EVP_DigestUpdate(context.get(), part.data(), part.size()) == 1;
  }
  ok = ok && EVP_DigestFinal_ex(context.get(), digest.data(), &size) == 1 && size == digest.size();
  if (!ok) {  // no usable provider: fall back to the one-shot call on the joined parts
    std::string joined;
    for (std::string_view part : parts) joined.append(part);
    SHA256(reinterpret_cast<const unsigned char*>(joined.data()), joined.size(), digest.data());
  }
  return digest;
}

}  // namespace

std::array<unsigned char, 32> Sha256(std::string_view data) {
  return Sha256Of({data});
}

DeliveryIds::DeliveryIds(std::string_view scope, std::string_view delivery)
    : scope_(scope), delivery_(delivery) {}

std::string DeliveryIds::At(std::uint64_t position) const {
  if (!digest_) digest_ = Sha256Of({scope_, std::string_view("\0", 1), delivery_});
  const std::array<unsigned char, 32>& digest = *digest_;
  std::array<char, 32 + 8> input{};
  for (std::size_t i = 0; i < digest.size(); ++i) input[i] = static_cast<char>(digest[i]);
  for (int i = 0; i < 8; ++i) {
    input[digest.size() + i] = static_cast<char>((position >> (8 * i)) & 0xFF);
  }
  std::array<unsigned char, 32> bytes = Sha256(std::string_view(input.data(), input.size()));
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0F) | 0x80);  // version 8
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3F) | 0x80);  // RFC 9562 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 0x0F]);
  }
  return out;
}

}  // namespace lqe::schema
