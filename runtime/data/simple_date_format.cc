#include "runtime/data/simple_date_format.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"

namespace connectd::data {
namespace {

constexpr int64_t kMillisPerDay = 86400000;
// 1582-10-15, the first day of the Gregorian calendar (GregorianCalendar's default cutover), in
// days since 1970-01-01; earlier days are Julian calendar dates.
constexpr int64_t kCutoverDay = -141427;
constexpr int kCutoverYear = 1582;

// The pattern letters in DateFormatSymbols.patternChars order.
constexpr std::string_view kPatternLetters = "GyMdkHmsSEDFwWahKzZYuXL";

constexpr std::array<std::string_view, 12> kMonths = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};
constexpr std::array<std::string_view, 12> kShortMonths = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
// Index 1 is Sunday (Calendar.SUNDAY), as DateFormatSymbols keeps them.
constexpr std::array<std::string_view, 8> kWeekdays = {
    "", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
constexpr std::array<std::string_view, 8> kShortWeekdays = {"",    "Sun", "Mon", "Tue",
                                                            "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 2> kAmPmNames = {"AM", "PM"};
constexpr std::array<std::string_view, 2> kEraNames = {"BC", "AD"};

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

// ---- Calendar arithmetic (days since 1970-01-01) -----------------------------------------------

struct Civil {
  int64_t year = 1970;  // proleptic: 0 is 1 BC
  int month = 1;        // 1..12
  int day = 1;
};

int64_t MarchDayOfYear(int month, int day) {
  return (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
}

int64_t GregorianDays(int64_t year, int month, int day) {
  const int64_t y = year - (month <= 2 ? 1 : 0);
  const int64_t era = FloorDiv(y, 400);
  const int64_t yoe = y - era * 400;
  return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + MarchDayOfYear(month, day) - 719468;
}

int64_t JulianDays(int64_t year, int month, int day) {
  const int64_t y = year - (month <= 2 ? 1 : 0);
  return 365 * y + FloorDiv(y, 4) + MarchDayOfYear(month, day) - 719470;
}

Civil FromMarchYear(int64_t march_year, int64_t doy) {
  const int64_t mp = (5 * doy + 2) / 153;
  Civil c;
  c.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  c.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  c.year = march_year + (c.month <= 2 ? 1 : 0);
  return c;
}

Civil GregorianCivil(int64_t days) {
  const int64_t z = days + 719468;
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  return FromMarchYear(yoe + era * 400, doe - (365 * yoe + yoe / 4 - yoe / 100));
}

Civil JulianCivil(int64_t days) {
  const int64_t z = days + 719470;
  const int64_t cycle = FloorDiv(z, 1461);
  const int64_t rest = z - cycle * 1461;
  const int64_t yoc = std::min<int64_t>(rest / 365, 3);
  return FromMarchYear(cycle * 4 + yoc, rest - 365 * yoc);
}

Civil CivilOf(int64_t days) {
  return days >= kCutoverDay ? GregorianCivil(days) : JulianCivil(days);
}

int64_t DaysOf(bool gregorian, int64_t year, int month, int day) {
  return gregorian ? GregorianDays(year, month, day) : JulianDays(year, month, day);
}

// January 1st of `year` in the calendar that year starts in.
int64_t Jan1(int64_t year) { return DaysOf(year > kCutoverYear, year, 1, 1); }

int MonthLength(bool gregorian, int64_t year, int month) {
  static constexpr std::array<int, 12> kLengths = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month != 2) return kLengths[month - 1];
  const bool leap =
      gregorian ? (FloorMod(year, 4) == 0 && (FloorMod(year, 100) != 0 || FloorMod(year, 400) == 0))
                : FloorMod(year, 4) == 0;
  return leap ? 29 : 28;
}

// Day of the week, Calendar style: 1 is Sunday.
int DayOfWeek(int64_t days) { return static_cast<int>(FloorMod(days + 4, 7)) + 1; }

// BaseCalendar.getDayOfWeekDateOnOrBefore: the last day on or before `days` that falls on
// `day_of_week` (1 Sunday .. 7 Saturday; other values taken modulo 7).
int64_t DayOfWeekOnOrBefore(int64_t days, int64_t day_of_week) {
  return days - FloorMod(days + 5 - day_of_week, 7);
}

// The Sunday that starts week 1 of the period beginning on `first` (US weeks: Sunday first, one
// day is enough for a first week).
int64_t FirstWeekStart(int64_t first) { return DayOfWeekOnOrBefore(first, 1); }

// ---- Formatting ---------------------------------------------------------------------------------

// The calendar fields of one instant, as GregorianCalendar computes them in UTC.
struct Fields {
  int64_t year = 0;  // proleptic
  int month = 0;     // 0..11
  int day_of_month = 0;
  int64_t day_of_year = 0;
  int day_of_week = 0;  // 1 Sunday
  int64_t week_of_year = 0;
  int64_t week_year = 0;
  int64_t week_of_month = 0;
  int64_t day_of_week_in_month = 0;
  int64_t millis_of_day = 0;
};

Fields FieldsOf(int64_t epoch_millis) {
  const int64_t days = FloorDiv(epoch_millis, kMillisPerDay);
  const Civil c = CivilOf(days);
  Fields f;
  f.year = c.year;
  f.month = c.month - 1;
  f.day_of_month = c.day;
  f.millis_of_day = epoch_millis - days * kMillisPerDay;
  f.day_of_week = DayOfWeek(days);
  const int64_t jan1 = Jan1(c.year);
  f.day_of_year = days - jan1 + 1;
  f.week_of_year = (days - FirstWeekStart(jan1)) / 7 + 1;
  f.week_year = c.year;
  if (days >= FirstWeekStart(Jan1(c.year + 1))) {
    f.week_of_year = 1;
    f.week_year = c.year + 1;
  }
  // The month's first day: in October 1582 a Julian day, ten days before the Gregorian count.
  int64_t month1 = DaysOf(days >= kCutoverDay, c.year, c.month, 1);
  if (month1 < kCutoverDay) month1 = JulianDays(c.year, c.month, 1);
  f.day_of_week_in_month = (days - month1) / 7 + 1;
  f.week_of_month = (days - FirstWeekStart(month1)) / 7 + 1;
  return f;
}

// SimpleDateFormat.zeroPaddingNumber: at least `min_digits` digits; with `two_digits` only the
// last two (DecimalFormat with maximumIntegerDigits 2).
void AppendNumber(int64_t value, int min_digits, bool two_digits, std::string& out) {
  std::string digits =
      std::to_string(value < 0 ? -static_cast<uint64_t>(value) : static_cast<uint64_t>(value));
  if (two_digits && digits.size() > 2) digits.erase(0, digits.size() - 2);
  if (value < 0) out.push_back('-');
  if (static_cast<int>(digits.size()) < min_digits) out.append(min_digits - digits.size(), '0');
  out += digits;
}

// ---- Parsing ------------------------------------------------------------------------------------

// The fields SimpleDateFormat's CalendarBuilder collects, in Calendar's order of resolution.
enum Field {
  kEra,
  kYear,
  kMonth,
  kWeekOfYear,
  kWeekOfMonth,
  kDayOfMonth,
  kDayOfYear,
  kDayOfWeek,
  kDayOfWeekInMonth,
  kAmPm,
  kHour,
  kHourOfDay,
  kMinute,
  kSecond,
  kMillisecond,
  kZoneOffset,
  kDstOffset,
  kWeekYear,
  kFieldCount,
};

// CalendarBuilder: each set field remembers when it was set (a stamp), which decides which of
// competing fields (day of month or week and day of week, hour of day or hour and AM/PM) wins.
struct Builder {
  std::array<int64_t, kFieldCount> value{};
  std::array<int, kFieldCount> stamp{};  // 0: unset
  int next_stamp = 2;

  void Set(Field f, int64_t v) {
    value[f] = v;
    stamp[f] = next_stamp++;
  }
  bool IsSet(Field f) const { return stamp[f] != 0; }
  int64_t Get(Field f) const { return value[f]; }
};

int AggregateStamp(int a, int b) { return a == 0 || b == 0 ? 0 : std::max(a, b); }

// Which date fields GregorianCalendar.computeTime uses (Calendar.selectFields).
struct DateSelection {
  bool by_month = true;  // else by year
  bool day_of_month = false;
  bool week_of_month = false;
  bool day_of_week_in_month = false;
  bool day_of_year = false;
  bool day_of_week = false;  // DAY_OF_WEEK refines the week-based forms
};

DateSelection SelectDateFields(const Builder& b) {
  const int dow = b.stamp[kDayOfWeek];
  int dom = b.stamp[kDayOfMonth];
  int wom = AggregateStamp(b.stamp[kWeekOfMonth], dow);
  int dowim = AggregateStamp(b.stamp[kDayOfWeekInMonth], dow);
  const int doy = b.stamp[kDayOfYear];
  int woy = AggregateStamp(b.stamp[kWeekOfYear], dow);
  int best = std::max({dom, wom, dowim, doy, woy});
  if (best == 0) {
    // No complete combination: WEEK_OF_MONTH, DAY_OF_WEEK_IN_MONTH or WEEK_OF_YEAR alone, and
    // DAY_OF_WEEK alone counts as DAY_OF_WEEK_IN_MONTH.
    wom = b.stamp[kWeekOfMonth];
    dowim = std::max(b.stamp[kDayOfWeekInMonth], dow);
    woy = b.stamp[kWeekOfYear];
    best = std::max({wom, dowim, woy});
    if (best == 0) best = dom = b.stamp[kMonth];
  }
  DateSelection s;
  if (best == dom || (best == wom && b.stamp[kWeekOfMonth] >= b.stamp[kWeekOfYear]) ||
      (best == dowim && b.stamp[kDayOfWeekInMonth] >= b.stamp[kWeekOfYear])) {
    s.by_month = true;
    if (best == dom) {
      s.day_of_month = true;
    } else {
      s.day_of_week = dow != 0;
      if (wom == dowim) {
        if (b.stamp[kWeekOfMonth] >= b.stamp[kDayOfWeekInMonth]) {
          s.week_of_month = true;
        } else {
          s.day_of_week_in_month = true;
        }
      } else if (best == wom) {
        s.week_of_month = true;
      } else {
        s.day_of_week_in_month = b.stamp[kDayOfWeekInMonth] != 0;
      }
    }
  } else {
    s.by_month = false;
    if (best == doy) {
      s.day_of_year = true;
    } else {
      s.day_of_week = dow != 0;
    }
  }
  return s;
}

// 7 * v in Java int arithmetic (wrapping), as Calendar computes week offsets.
int64_t IntTimes7(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v) * 7));
}

// GregorianCalendar.getFixedDate in one calendar system (days since the epoch).
int64_t FixedDate(bool gregorian, int64_t year, const Builder& b, const DateSelection& s) {
  int64_t month = 0;
  if (s.by_month) {
    month = b.Get(kMonth);
    year += FloorDiv(month, 12);
    month = FloorMod(month, 12);
  }
  int64_t days = DaysOf(gregorian, year, static_cast<int>(month) + 1, 1);
  if (s.by_month) {
    if (s.day_of_month) {
      if (b.IsSet(kDayOfMonth)) days += b.Get(kDayOfMonth) - 1;
    } else if (s.week_of_month) {
      int64_t week_start = FirstWeekStart(days);
      if (s.day_of_week) week_start = DayOfWeekOnOrBefore(week_start + 6, b.Get(kDayOfWeek));
      days = week_start + IntTimes7(b.Get(kWeekOfMonth) - 1);
    } else {
      const int64_t day_of_week = s.day_of_week ? b.Get(kDayOfWeek) : 1;
      const int64_t dowim = s.day_of_week_in_month ? b.Get(kDayOfWeekInMonth) : 1;
      if (dowim >= 0) {
        days = DayOfWeekOnOrBefore(days + IntTimes7(dowim) - 1, day_of_week);
      } else {
        const int64_t last =
            MonthLength(gregorian, year, static_cast<int>(month) + 1) + 7 * (dowim + 1);
        days = DayOfWeekOnOrBefore(days + last - 1, day_of_week);
      }
    }
  } else {
    if (s.day_of_year) {
      days += b.Get(kDayOfYear) - 1;
    } else {
      int64_t week_start = FirstWeekStart(days);
      if (s.day_of_week && b.Get(kDayOfWeek) != 1) {
        week_start = DayOfWeekOnOrBefore(week_start + 6, b.Get(kDayOfWeek));
      }
      days = week_start + 7 * (b.Get(kWeekOfYear) - 1);
    }
  }
  return days;
}

// The day the fields name, `extra_days` (whole days of the time fields) included, choosing the
// Julian or Gregorian calendar as GregorianCalendar does.
int64_t ResolveDate(const Builder& b, int64_t extra_days) {
  int64_t year = b.IsSet(kYear) ? b.Get(kYear) : 1970;
  if (b.IsSet(kEra) && b.Get(kEra) == 0) year = 1 - year;
  const DateSelection s = SelectDateFields(b);
  int64_t gregorian = 0;
  int64_t julian = 0;
  if (year > kCutoverYear) {
    gregorian = extra_days + FixedDate(true, year, b, s);
    if (gregorian >= kCutoverDay) return gregorian;
    julian = extra_days + FixedDate(false, year, b, s);
  } else if (year < kCutoverYear) {
    julian = extra_days + FixedDate(false, year, b, s);
    if (julian < kCutoverDay) return julian;
    gregorian = julian;
  } else {
    julian = extra_days + FixedDate(false, year, b, s);
    gregorian = extra_days + FixedDate(true, year, b, s);
  }
  // A Gregorian date in the gap before the cutover reads as the Julian date of that name.
  return gregorian >= kCutoverDay ? gregorian : julian;
}

// CalendarBuilder.establish + GregorianCalendar.computeTime, in UTC.
int64_t EstablishMillis(const Builder& b) {
  int64_t time_of_day = 0;
  const int hour_of_day_stamp = b.stamp[kHourOfDay];
  int best = std::max(AggregateStamp(b.stamp[kHour], b.stamp[kAmPm]), hour_of_day_stamp);
  if (best == 0) best = std::max(b.stamp[kHour], b.stamp[kAmPm]);
  if (best != 0 && best == hour_of_day_stamp) {
    time_of_day = b.Get(kHourOfDay);
  } else {
    time_of_day = b.Get(kHour) + (b.IsSet(kAmPm) ? 12 * b.Get(kAmPm) : 0);
  }
  time_of_day =
      ((time_of_day * 60 + b.Get(kMinute)) * 60 + b.Get(kSecond)) * 1000 + b.Get(kMillisecond);
  const int64_t extra_days = FloorDiv(time_of_day, kMillisPerDay);
  time_of_day -= extra_days * kMillisPerDay;

  int64_t days = 0;
  if (b.IsSet(kWeekYear) && b.stamp[kWeekYear] > b.stamp[kYear]) {
    // A week date (Calendar.setWeekDate): week 1 of the week year, then weeks and days.
    int64_t week = b.IsSet(kWeekOfYear) ? b.Get(kWeekOfYear) : 1;
    int64_t day_of_week = b.IsSet(kDayOfWeek) ? b.Get(kDayOfWeek) : 1;
    if (day_of_week < 1 || day_of_week > 7) {
      // Lenient: an ISO day number out of range carries into the week, then becomes Calendar's.
      if (day_of_week >= 8) {
        --day_of_week;
        week += day_of_week / 7;
        day_of_week = day_of_week % 7 + 1;
      } else {
        while (day_of_week <= 0) {
          day_of_week += 7;
          --week;
        }
      }
      day_of_week = day_of_week == 7 ? 1 : day_of_week + 1;
    }
    days = FirstWeekStart(Jan1(b.Get(kWeekYear))) + (day_of_week - 1) + 7 * (week - 1) + extra_days;
  } else {
    days = ResolveDate(b, extra_days);
  }
  return days * kMillisPerDay + time_of_day - b.Get(kZoneOffset) - b.Get(kDstOffset);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool StartsWithIgnoreCase(std::string_view text, size_t pos, std::string_view word) {
  if (pos > text.size() || text.size() - pos < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    const auto a = static_cast<unsigned char>(text[pos + i]);
    const auto b = static_cast<unsigned char>(word[i]);
    if (std::tolower(a) != std::tolower(b)) return false;
  }
  return true;
}

// SimpleDateFormat.matchString: the longest name matching at `pos`, case-insensitively.
template <size_t N>
std::optional<size_t> MatchName(std::string_view text, size_t pos,
                                const std::array<std::string_view, N>& names, size_t& match) {
  size_t best_length = 0;
  std::optional<size_t> best;
  for (size_t i = 0; i < N; ++i) {
    if (names[i].size() > best_length && StartsWithIgnoreCase(text, pos, names[i])) {
      best = i;
      best_length = names[i].size();
    }
  }
  if (best) match = pos + best_length;
  return best;
}

// DecimalFormat.parse as SimpleDateFormat configures it (integers only, no grouping), then
// Number.intValue(): an optional '-', digits and an optional exponent ("E", optional '-',
// digits). Advances `pos`; nullopt (pos unchanged) without a digit.
std::optional<int32_t> ParseNumber(std::string_view text, size_t& pos) {
  size_t p = pos;
  if (text.substr(p, 3) == "NaN") {
    pos = p + 3;
    return 0;
  }
  bool negative = false;
  if (p < text.size() && text[p] == '-') {
    negative = true;
    ++p;
  }
  if (text.substr(p, 3) == "\xE2\x88\x9E") {  // U+221E, DecimalFormatSymbols.getInfinity()
    pos = p + 3;
    return negative ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max();
  }
  std::string digits;  // without leading zeros
  bool saw_digit = false;
  int32_t exponent = 0;
  for (; p < text.size(); ++p) {
    const char c = text[p];
    if (IsDigit(c)) {
      saw_digit = true;
      if (c == '0' && digits.empty()) continue;
      digits.push_back(c);
    } else if (c == 'E') {
      size_t q = p + 1;
      const bool exponent_negative = q < text.size() && text[q] == '-';
      if (exponent_negative) ++q;
      std::string exponent_digits;
      bool exponent_digit = false;
      for (; q < text.size() && IsDigit(text[q]); ++q) {
        exponent_digit = true;
        if (text[q] == '0' && exponent_digits.empty()) continue;
        exponent_digits.push_back(text[q]);
      }
      const bool fits =
          exponent_digits.size() < 19 ||
          (exponent_digits.size() == 19 &&
           exponent_digits < (exponent_negative ? "9223372036854775809" : "9223372036854775808"));
      if (exponent_digit && fits) {
        // DigitList.getLong() cast to int, as DecimalFormat keeps the exponent.
        uint64_t bits =
            exponent_digits.empty() ? 0 : std::strtoull(exponent_digits.c_str(), nullptr, 10);
        if (exponent_negative) bits = 0 - bits;
        exponent = static_cast<int32_t>(static_cast<uint32_t>(bits));
        p = q;
      }
      break;
    } else {
      break;
    }
  }
  if (!saw_digit) return std::nullopt;
  pos = p;
  // The number is 0.<digits> x 10^decimal_at.
  // DigitList.decimalAt is an int: the exponent is added with int overflow.
  const int64_t decimal_at =
      static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(digits.size()) + exponent));
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  if (digits.empty()) return 0;
  const auto count = static_cast<int64_t>(digits.size());
  const bool integral = decimal_at >= count;
  bool fits_long = integral && decimal_at <= 19;
  std::string padded;
  if (fits_long) {
    padded = digits + std::string(decimal_at - count, '0');
    if (decimal_at == 19) {
      fits_long = negative ? padded <= "9223372036854775808" : padded < "9223372036854775808";
    }
  }
  if (fits_long) {
    const uint64_t magnitude = std::strtoull(padded.c_str(), nullptr, 10);
    const uint64_t bits = negative ? 0 - magnitude : magnitude;
    return static_cast<int32_t>(static_cast<uint32_t>(bits));  // Long.intValue()
  }
  // A Double: intValue() truncates toward zero and saturates.
  if (decimal_at > 10) {
    return negative ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max();
  }
  if (decimal_at <= 0) return 0;
  const double magnitude =
      std::strtod(("0." + digits + "e" + std::to_string(decimal_at)).c_str(), nullptr);
  const double truncated = std::trunc(negative ? -magnitude : magnitude);
  if (truncated >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (truncated <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(truncated);
}

// SimpleDateFormat.shouldObeyCount: a numeric field directly after another numeric field takes
// exactly its width.
bool IsNumericField(char letter, int count) {
  switch (letter) {
    case 'M':
    case 'L':
      return count <= 2;
    case 'y':
    case 'd':
    case 'k':
    case 'H':
    case 'm':
    case 's':
    case 'S':
    case 'D':
    case 'F':
    case 'w':
    case 'W':
    case 'h':
    case 'K':
    case 'Y':
    case 'u':
      return true;
    default:
      return false;
  }
}

// SimpleDateFormat.subParseNumericZone: "hh", "hhmm" or "hh:mm" after the sign.
std::optional<size_t> ParseNumericZone(std::string_view text, size_t start, int sign, int count,
                                       bool colon, Builder& b) {
  size_t i = start;
  auto next = [&](char& c) {
    if (i >= text.size()) return false;
    c = text[i++];
    return true;
  };
  char c = 0;
  if (!next(c) || !IsDigit(c)) return std::nullopt;
  int hours = c - '0';
  if (!next(c)) return std::nullopt;
  if (IsDigit(c)) {
    hours = hours * 10 + (c - '0');
  } else {
    if (count > 0 || !colon) return std::nullopt;
    --i;
  }
  if (hours > 23) return std::nullopt;
  int minutes = 0;
  if (count != 1) {
    if (!next(c)) return std::nullopt;
    if (colon) {
      if (c != ':' || !next(c)) return std::nullopt;
    }
    if (!IsDigit(c)) return std::nullopt;
    minutes = c - '0';
    if (!next(c) || !IsDigit(c)) return std::nullopt;
    minutes = minutes * 10 + (c - '0');
    if (minutes > 59) return std::nullopt;
  }
  b.Set(kZoneOffset, static_cast<int64_t>(minutes + hours * 60) * 60000 * sign);
  b.Set(kDstOffset, 0);
  return i;
}

// The year two-digit years are read relative to: 80 years before now (the default century
// start), as a year and as an instant.
struct CenturyStart {
  int64_t year = 0;
  int64_t epoch_millis = 0;
};

CenturyStart DefaultCenturyStart() {
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const int64_t days = FloorDiv(now, kMillisPerDay);
  const Civil c = CivilOf(days);
  const int64_t year = c.year - 80;
  const int day = std::min(c.day, MonthLength(year > kCutoverYear, year, c.month));
  return {year, DaysOf(year > kCutoverYear, year, c.month, day) * kMillisPerDay +
                    (now - days * kMillisPerDay)};
}

struct ParseState {
  Builder builder;
  bool ambiguous_year = false;
  CenturyStart century;
};

// SimpleDateFormat.subParse for one field at `start`: the position after it, or nullopt.
std::optional<size_t> ParseField(std::string_view text, size_t start, char letter, int count,
                                 bool obey_count, ParseState& st) {
  Builder& b = st.builder;
  size_t pos = start;
  while (true) {
    if (pos >= text.size()) return std::nullopt;
    if (text[pos] != ' ' && text[pos] != '\t') break;
    ++pos;
  }
  const size_t actual_start = pos;
  auto number = [&]() -> std::optional<int32_t> {
    if (obey_count) {
      if (start + count > text.size()) return std::nullopt;
      return ParseNumber(text.substr(0, start + count), pos);
    }
    return ParseNumber(text, pos);
  };
  size_t end = 0;
  switch (letter) {
    case 'G':
      if (auto i = MatchName(text, start, kEraNames, end)) {
        b.Set(kEra, static_cast<int64_t>(*i));
        return end;
      }
      return std::nullopt;
    case 'y':
    case 'Y': {
      auto v = number();
      if (!v) return std::nullopt;
      int64_t value = *v;
      if (count <= 2 && pos - actual_start == 2 && IsDigit(text[actual_start]) &&
          IsDigit(text[actual_start + 1])) {
        const int64_t ambiguous = st.century.year % 100;
        st.ambiguous_year = value == ambiguous;
        value += (st.century.year / 100) * 100 + (value < ambiguous ? 100 : 0);
      }
      b.Set(letter == 'y' ? kYear : kWeekYear, value);
      return pos;
    }
    case 'M':
    case 'L':
      if (count <= 2) {
        auto v = number();
        if (!v) return std::nullopt;
        b.Set(kMonth, static_cast<int64_t>(*v) - 1);
        return pos;
      }
      if (auto i = MatchName(text, start, kMonths, end)) {
        b.Set(kMonth, static_cast<int64_t>(*i));
        return end;
      }
      if (auto i = MatchName(text, start, kShortMonths, end)) {
        b.Set(kMonth, static_cast<int64_t>(*i));
        return end;
      }
      return std::nullopt;
    case 'k':
    case 'h': {
      auto v = number();
      if (!v) return std::nullopt;
      int64_t value = *v;
      if (value == (letter == 'k' ? 24 : 12)) value = 0;
      b.Set(letter == 'k' ? kHourOfDay : kHour, value);
      return pos;
    }
    case 'E':
      if (auto i = MatchName(text, start, kWeekdays, end)) {
        b.Set(kDayOfWeek, static_cast<int64_t>(*i));
        return end;
      }
      if (auto i = MatchName(text, start, kShortWeekdays, end)) {
        b.Set(kDayOfWeek, static_cast<int64_t>(*i));
        return end;
      }
      return std::nullopt;
    case 'a':
      if (auto i = MatchName(text, start, kAmPmNames, end)) {
        b.Set(kAmPm, static_cast<int64_t>(*i));
        return end;
      }
      return std::nullopt;
    case 'z':
    case 'Z': {
      const char c = text[pos];
      int sign = c == '+' ? 1 : c == '-' ? -1 : 0;
      if (sign != 0) return ParseNumericZone(text, pos + 1, sign, 0, false, b);
      if ((c == 'G' || c == 'g') && StartsWithIgnoreCase(text, start, "GMT")) {
        pos = start + 3;
        if (pos < text.size()) sign = text[pos] == '+' ? 1 : text[pos] == '-' ? -1 : 0;
        if (sign == 0) {
          b.Set(kZoneOffset, 0);
          b.Set(kDstOffset, 0);
          return pos;
        }
        return ParseNumericZone(text, pos + 1, sign, 0, true, b);
      }
      // The names of the format's own zone, UTC (long name first). Its standard and daylight
      // names are the same, so Java leaves the offset to the zone.
      for (std::string_view name :
           {std::string_view("Coordinated Universal Time"), std::string_view("UTC")}) {
        if (StartsWithIgnoreCase(text, pos, name)) return pos + name.size();
      }
      return std::nullopt;
    }
    case 'X': {
      const char c = text[pos];
      if (c == 'Z') {
        b.Set(kZoneOffset, 0);
        b.Set(kDstOffset, 0);
        return pos + 1;
      }
      const int sign = c == '+' ? 1 : c == '-' ? -1 : 0;
      if (sign == 0) return std::nullopt;
      return ParseNumericZone(text, pos + 1, sign, count, count == 3, b);
    }
    default: {
      static constexpr std::array<std::pair<char, Field>, 11> kGeneric = {{{'d', kDayOfMonth},
                                                                           {'H', kHourOfDay},
                                                                           {'m', kMinute},
                                                                           {'s', kSecond},
                                                                           {'S', kMillisecond},
                                                                           {'D', kDayOfYear},
                                                                           {'F', kDayOfWeekInMonth},
                                                                           {'w', kWeekOfYear},
                                                                           {'W', kWeekOfMonth},
                                                                           {'K', kHour},
                                                                           {'u', kDayOfWeek}}};
      auto v = number();
      if (!v) return std::nullopt;
      int64_t value = *v;
      // 'u' is the ISO day number (1 Monday .. 7 Sunday); Calendar's DAY_OF_WEEK has 1 Sunday.
      if (letter == 'u' && value >= 1 && value <= 7) value = value == 7 ? 1 : value + 1;
      for (const auto& [l, field] : kGeneric) {
        if (l == letter) b.Set(field, value);
      }
      return pos;
    }
  }
}

}  // namespace

absl::StatusOr<SimpleDateFormat> SimpleDateFormat::Compile(std::string_view pattern) {
  SimpleDateFormat format{std::string(pattern)};
  std::vector<Item>& items = format.items_;
  char run_letter = 0;
  int run_count = 0;
  auto close_run = [&]() -> absl::Status {
    if (run_count == 0) return absl::OkStatus();
    if (run_letter == 'X' && run_count >= 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("invalid ISO 8601 format: length=", run_count));
    }
    items.push_back(Item{run_letter, run_count, {}});
    run_letter = 0;
    run_count = 0;
    return absl::OkStatus();
  };
  auto append_literal = [&](std::string_view text) {
    if (items.empty() || items.back().letter != 0) items.push_back(Item{});
    items.back().literal.append(text.data(), text.size());
  };
  bool in_quote = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\'') {
      if (i + 1 < pattern.size() && pattern[i + 1] == '\'') {
        if (absl::Status s = close_run(); !s.ok()) return s;
        append_literal("'");
        ++i;
      } else {
        if (absl::Status s = close_run(); !s.ok()) return s;
        in_quote = !in_quote;
      }
      continue;
    }
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (in_quote || !letter) {
      if (absl::Status s = close_run(); !s.ok()) return s;
      append_literal(pattern.substr(i, 1));
      continue;
    }
    if (kPatternLetters.find(c) == std::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("Illegal pattern character '", std::string(1, c), "'"));
    }
    if (run_count != 0 && run_letter != c) {
      if (absl::Status s = close_run(); !s.ok()) return s;
    }
    run_letter = c;
    ++run_count;
  }
  if (in_quote) return absl::InvalidArgumentError("Unterminated quote");
  if (absl::Status s = close_run(); !s.ok()) return s;
  return format;
}

std::string SimpleDateFormat::Format(int64_t epoch_millis) const {
  const Fields f = FieldsOf(epoch_millis);
  const bool bc = f.year <= 0;
  const int64_t year_of_era = bc ? 1 - f.year : f.year;
  const int64_t hour_of_day = f.millis_of_day / 3600000;
  std::string out;
  for (const Item& item : items_) {
    const int n = item.count;
    switch (item.letter) {
      case 0:
        out += item.literal;
        break;
      case 'G':
        out += kEraNames[bc ? 0 : 1];
        break;
      case 'y':
        AppendNumber(year_of_era, n == 2 ? 2 : n, n == 2, out);
        break;
      case 'Y':
        AppendNumber(f.week_year, n == 2 ? 2 : n, n == 2, out);
        break;
      case 'M':
      case 'L':
        if (n >= 4) {
          out += kMonths[f.month];
        } else if (n == 3) {
          out += kShortMonths[f.month];
        } else {
          AppendNumber(f.month + 1, n, false, out);
        }
        break;
      case 'd':
        AppendNumber(f.day_of_month, n, false, out);
        break;
      case 'k':
        AppendNumber(hour_of_day == 0 ? 24 : hour_of_day, n, false, out);
        break;
      case 'H':
        AppendNumber(hour_of_day, n, false, out);
        break;
      case 'h':
        AppendNumber(hour_of_day % 12 == 0 ? 12 : hour_of_day % 12, n, false, out);
        break;
      case 'K':
        AppendNumber(hour_of_day % 12, n, false, out);
        break;
      case 'm':
        AppendNumber(f.millis_of_day / 60000 % 60, n, false, out);
        break;
      case 's':
        AppendNumber(f.millis_of_day / 1000 % 60, n, false, out);
        break;
      case 'S':
        AppendNumber(f.millis_of_day % 1000, n, false, out);
        break;
      case 'E':
        out += n >= 4 ? kWeekdays[f.day_of_week] : kShortWeekdays[f.day_of_week];
        break;
      case 'u':
        AppendNumber(f.day_of_week == 1 ? 7 : f.day_of_week - 1, n, false, out);
        break;
      case 'D':
        AppendNumber(f.day_of_year, n, false, out);
        break;
      case 'F':
        AppendNumber(f.day_of_week_in_month, n, false, out);
        break;
      case 'w':
        AppendNumber(f.week_of_year, n, false, out);
        break;
      case 'W':
        AppendNumber(f.week_of_month, n, false, out);
        break;
      case 'a':
        out += kAmPmNames[hour_of_day >= 12 ? 1 : 0];
        break;
      case 'z':
        out += n >= 4 ? "Coordinated Universal Time" : "UTC";
        break;
      case 'Z':
        out += "+0000";
        break;
      case 'X':
        out += "Z";
        break;
      default:
        break;
    }
  }
  return out;
}

std::optional<SimpleDateFormat::Parsed> SimpleDateFormat::Parse(std::string_view text) const {
  ParseState st;
  st.century = DefaultCenturyStart();
  size_t pos = 0;
  for (size_t i = 0; i < items_.size(); ++i) {
    const Item& item = items_[i];
    if (item.letter == 0) {
      if (text.substr(pos, item.literal.size()) != item.literal) return std::nullopt;
      pos += item.literal.size();
      continue;
    }
    const bool obey_count = i + 1 < items_.size() && items_[i + 1].letter != 0 &&
                            IsNumericField(items_[i + 1].letter, items_[i + 1].count);
    std::optional<size_t> next = ParseField(text, pos, item.letter, item.count, obey_count, st);
    if (!next) return std::nullopt;
    pos = *next;
  }
  if (pos == 0) return std::nullopt;
  int64_t millis = EstablishMillis(st.builder);
  if (st.ambiguous_year && millis < st.century.epoch_millis) {
    Builder later = st.builder;  // CalendarBuilder.addYear(100)
    later.value[kYear] += 100;
    later.value[kWeekYear] += 100;
    millis = EstablishMillis(later);
  }
  return Parsed{millis, pos};
}

}  // namespace connectd::data
