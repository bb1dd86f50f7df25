// File: simple_date_format.h
//
// java.text.SimpleDateFormat as Connect uses it: time zone UTC, Locale.US, lenient parsing (the
// default), over a java.util.GregorianCalendar (Julian before 1582-10-15). TimestampConverter,
// TimestampRouter and Values (the ISO-8601 forms of Date, Time and Timestamp) build on it.
//
// Pattern: the letters G y M L d k H m s S E D F w W a h K z Z Y u X, runs of a letter giving
// its width, '...' quoted text and '' a quote; other characters are literal. Compile rejects
// what Java's constructor rejects, with its IllegalArgumentException message ("Illegal pattern
// character 'q'", "Unterminated quote", "invalid ISO 8601 format: length=4").
//
// Parse is parse(text, new ParsePosition(0)): fields in pattern order, spaces and tabs skipped
// before each field, numbers as DecimalFormat reads them (optional '-', exponent), adjacent
// numeric fields taking exactly their width, names case-insensitively, two-digit years in the
// 100 years from 80 years ago; out-of-range values roll over (2023-13-45 is 2024-02-14), and text
// after the last field is ignored. Not reproduced: non-ASCII digits, and zone names other than
// UTC/GMT and "Coordinated Universal Time" (Java knows every zone's names, and parsing one
// switches the format's own zone).
//
// Thread safety: immutable after Compile; Format and Parse may run on any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::data {

class SimpleDateFormat {
 public:
  // new SimpleDateFormat(pattern) with setTimeZone(UTC); kInvalidArgument carrying the message of
  // Java's IllegalArgumentException for a bad pattern.
  static absl::StatusOr<SimpleDateFormat> Compile(std::string_view pattern);

  // toPattern(): the pattern as given.
  const std::string& pattern() const { return pattern_; }

  // format(new Date(epoch_millis)).
  std::string Format(int64_t epoch_millis) const;

  struct Parsed {
    int64_t epoch_millis = 0;
    size_t end = 0;  // byte offset after the last character parsed
  };
  // parse(text, new ParsePosition(0)); nullopt where Java returns null (parse(String) throws
  // ParseException then).
  std::optional<Parsed> Parse(std::string_view text) const;

 private:
  struct Item {
    char letter = 0;      // 0: literal text
    int count = 0;        // run length of the letter
    std::string literal;  // literal text (UTF-8)
  };

  explicit SimpleDateFormat(std::string pattern) : pattern_(std::move(pattern)) {}

  std::string pattern_;
  std::vector<Item> items_;
};

}  // namespace connectd::data
