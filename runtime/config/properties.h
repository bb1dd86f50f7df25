// File: properties.h
//
// Java `.properties` files read exactly as java.util.Properties#load reads them, so a team's
// existing connect-distributed.properties and mm2.properties work unchanged:
//   - comment lines start with '#' or '!' (after optional white space) and are never continued;
//   - a line ending in an odd number of backslashes continues on the next line, whose leading
//     white space is dropped;
//   - the key ends at the first unescaped '=', ':' or white space; white space, then at most one
//     '=' or ':', then white space separate it from the value;
//   - escapes: \t \n \r \f, \uXXXX (written out as UTF-8), and \c for any other c.
// One difference: Java decodes the file as ISO-8859-1; we keep bytes as they are, so UTF-8 files
// mean what their authors meant.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace connectd::config {

// Keys to values; a key given twice keeps its last value, as in Java.
using Properties = std::map<std::string, std::string>;

// Parses the text of a properties file. Fails (kInvalidArgument, naming the line) only on a
// malformed \uXXXX escape, where Java throws IllegalArgumentException.
absl::StatusOr<Properties> ParseProperties(std::string_view text);

// Reads and parses a file; kNotFound if it cannot be opened.
absl::StatusOr<Properties> LoadPropertiesFile(const std::string& path);

// The text of a properties file that ParseProperties (and Java's Properties#load) reads back as
// `properties`, one "key=value" line each: backslashes, line breaks, tabs and form feeds escaped
// (\\ \n \r \t \f), other control characters as \u00XX, a value's leading space, and the key's
// spaces, '=', ':', '#' and '!' escaped; other bytes (UTF-8) as they are. A value can never start
// another line.
std::string FormatProperties(const Properties& properties);

}  // namespace connectd::config
