// File: values.h
//
// The parts of Connect's org.apache.kafka.connect.data.Values that transforms use, with Java's
// results and DataException messages (kInvalidArgument):
//  - ParseString: Values.parseString, the type inference InsertHeader applies to its literal;
//  - ConvertToString: Values.convertToString, the text form Cast and header converters use;
//  - ConvertToBoolean ... ConvertToDouble: Values.convertToX, e.g. MaskField's replacement;
// and what they rely on: new BigDecimal(String), Values.dateFormatFor, and
// Date/Time/Timestamp.fromLogical. (String.valueOf(Object) is JavaToString in value.h.)
//
// Dates (java.util.Date values) are formatted and parsed in UTC: Values uses the JVM's default
// zone, and Connect workers run in UTC (the golden vectors were made so).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "runtime/data/decimal.h"
#include "runtime/data/schema.h"
#include "runtime/data/value.h"

namespace connectd::data {

// ParseString is Values.parseString(text): the schema and value Connect infers for a string.
//  - "" is the empty STRING; "null" (alone, around white space) is a null schema and value;
//    "true"/"false" are BOOLEAN;
//  - integral numbers are INT8, INT16, INT32 or INT64, the smallest that holds them; other
//    numbers FLOAT32 (if finite as a float) or FLOAT64, else a Decimal;
//  - "yyyy-MM-dd", "HH:mm:ss.SSS'Z'" and "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'" are Date, Time and
//    Timestamp (kDate values), read leniently in UTC;
//  - "[...]" and "{...}" are ARRAY and MAP with element schemas merged over the elements
//    (numbers widen), elements quoted or literal, nested;
//  - anything else, a malformed array or map included, is the whole text as a STRING.
// Never fails in practice (Java's parseString does not throw); the status is for the contract.
absl::StatusOr<std::pair<SchemaPtr, Value>> ParseString(std::string_view text);

// ConvertToString is Values.convertToString(schema, value): numbers and booleans as Java prints
// them, strings as they are, bytes in Base64, dates as "yyyy-MM-dd" (midnight),
// "HH:mm:ss.SSS'Z'" (within the first day of 1970, or before it) or
// "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", arrays "[a,b]", maps and structs "{k:v}" with strings quoted.
// A null value gives "null" (Java returns null; callers test for null first).
std::string ConvertToString(const Schema* schema, const Value& value);

// Values.convertToBoolean/Byte/Short/Integer/Long/Float/Double(schema, value): the value as
// that type (a null Value for null). Numbers convert as Java's casts do (truncating, wrapping);
// strings are read as new BigDecimal(text) ("1.5" as an int is 1); Date/Time/Timestamp values
// need their schema. Failure: "Unable to convert abc (class java.lang.String) to a number", or
// "... to Schema{...}" when a schema is given.
absl::StatusOr<Value> ConvertToBoolean(const Schema* schema, const Value& value);
absl::StatusOr<Value> ConvertToByte(const Schema* schema, const Value& value);
absl::StatusOr<Value> ConvertToShort(const Schema* schema, const Value& value);
absl::StatusOr<Value> ConvertToInteger(const Schema* schema, const Value& value);
absl::StatusOr<Value> ConvertToLong(const Schema* schema, const Value& value);
absl::StatusOr<Value> ConvertToFloat(const Schema* schema, const Value& value);
absl::StatusOr<Value> ConvertToDouble(const Schema* schema, const Value& value);

// ParseBigDecimal is new BigDecimal(text): an optional sign, digits with an optional '.', an
// optional exponent. kInvalidArgument (NumberFormatException; Java's message not reproduced)
// otherwise.
absl::StatusOr<Decimal> ParseBigDecimal(std::string_view text);

// EncodeLogical is Date/Time/Timestamp.fromLogical for a kDate value under a schema naming one
// of them: INT32 days, INT32 milliseconds of the day, INT64 epoch milliseconds. Any other value
// or schema is returned as it is. kInvalidArgument with Java's message for a Date with a time of
// day or a Time outside 1970-01-01.
absl::StatusOr<Value> EncodeLogical(const Schema& schema, const Value& value);

// FormatDateValue is Values.dateFormatFor(date).format(date) (see ConvertToString).
std::string FormatDateValue(int64_t epoch_millis);

// Java's (long) d and (int) d: NaN is 0, out-of-range values saturate.
int64_t JavaDoubleToLong(double d);
int32_t JavaDoubleToInt(double d);

}  // namespace connectd::data
