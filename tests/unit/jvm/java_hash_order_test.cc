// JavaHashOrder against the JDK: String.hashCode() and the iteration order of HashMap/HashSet
// built each way MirrorMaker 2 builds them. The expected text is the output of
// tests/golden/mirror/JavaHashOrder.java on OpenJDK 17 (run it to regenerate).
#include "jvm/java_hash_order.h"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace connectd::jvm {
namespace {

constexpr char kJavaOutput[] = R"(hash orders -1008770331
hash payments 1382682413
hash zeta 3735256
hash alpha 92909918
hash m1 3428
hash q 113
hash café 3045921
hash g😀 1871882
hash topic-10 -957341827
hash topic-2 -1139260652
hash topic-3 -1139260651
hash x 120
hash y 121
hash z 122
hash orders.replica 877104815
hash A.orders -1519751886
1 default orders
1 sized orders
1 copy orders
1 setcopy orders
1 toset orders
2 default payments,orders
2 sized orders,payments
2 copy orders,payments
2 setcopy payments,orders
2 toset payments,orders
3 default zeta,payments,orders
3 sized zeta,orders,payments
3 copy zeta,orders,payments
3 setcopy zeta,payments,orders
3 toset zeta,payments,orders
5 default zeta,m1,payments,alpha,orders
5 sized zeta,orders,m1,payments,alpha
5 copy zeta,orders,m1,payments,alpha
5 setcopy zeta,m1,payments,alpha,orders
5 toset zeta,m1,payments,alpha,orders
6 default zeta,q,m1,payments,alpha,orders
6 sized zeta,q,orders,m1,payments,alpha
6 copy zeta,q,m1,payments,alpha,orders
6 setcopy zeta,q,m1,payments,alpha,orders
6 toset zeta,q,m1,payments,alpha,orders
7 default zeta,q,m1,payments,alpha,orders,café
7 sized zeta,q,m1,payments,alpha,orders,café
7 copy zeta,q,m1,payments,alpha,orders,café
7 setcopy zeta,q,m1,payments,alpha,orders,café
7 toset zeta,q,m1,payments,alpha,orders,café
12 default zeta,q,m1,g😀,payments,alpha,x,orders,topic-2,topic-10,topic-3,café
12 sized zeta,q,m1,g😀,payments,alpha,x,orders,topic-2,topic-10,topic-3,café
12 copy zeta,m1,payments,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,orders
12 setcopy zeta,m1,payments,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,orders
12 toset zeta,q,m1,g😀,payments,alpha,x,orders,topic-2,topic-10,topic-3,café
13 default zeta,m1,payments,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,y,orders
13 sized zeta,m1,payments,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,y,orders
13 copy zeta,m1,payments,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,y,orders
13 setcopy zeta,m1,payments,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,y,orders
13 toset zeta,m1,payments,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,y,orders
16 default zeta,m1,payments,orders.replica,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,A.orders,y,orders,z
16 sized zeta,m1,payments,orders.replica,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,A.orders,y,orders,z
16 copy zeta,m1,payments,orders.replica,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,A.orders,y,orders,z
16 setcopy zeta,m1,payments,orders.replica,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,A.orders,y,orders,z
16 toset zeta,m1,payments,orders.replica,topic-2,topic-10,topic-3,café,q,g😀,alpha,x,A.orders,y,orders,z)";

// The keys JavaHashOrder.java puts, in its order.
const std::vector<std::string>& Names() {
  static const std::vector<std::string> names = {
      "orders",   "payments", "zeta",    "alpha", "m1", "q", "caf\u00e9",      "g\U0001F600",
      "topic-10", "topic-2",  "topic-3", "x",     "y",  "z", "orders.replica", "A.orders"};
  return names;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

TEST(JavaHashOrderTest, StringHashCodesMatchJava) {
  std::istringstream lines(kJavaOutput);
  std::string kind, name;
  int checked = 0;
  while (lines >> kind) {
    if (kind != "hash") {
      std::getline(lines, name);
      continue;
    }
    int64_t hash = 0;
    lines >> name >> hash;
    EXPECT_EQ(JavaStringHashCode(name), hash) << name;
    ++checked;
  }
  EXPECT_EQ(checked, 16);
  EXPECT_EQ(JavaStringHashCode(""), 0);
  // Malformed UTF-8 is U+FFFD to Java: "\uFFFD".hashCode() == 65533.
  EXPECT_EQ(JavaStringHashCode("\xff"), 65533);
}

TEST(JavaHashOrderTest, IterationOrdersMatchJava) {
  std::istringstream lines(kJavaOutput);
  std::string first;
  int checked = 0;
  while (lines >> first) {
    std::string kind, want;
    if (first == "hash") {
      std::getline(lines, want);
      continue;
    }
    lines >> kind >> want;
    const size_t n = std::stoul(first);
    const std::vector<std::string> keys(Names().begin(), Names().begin() + static_cast<long>(n));
    std::optional<size_t> initial;  // default, toset: new HashSet<>(), Collectors.toSet()
    if (kind == "sized") initial = n;
    if (kind == "copy") initial = JavaCopyCapacity(n);
    if (kind == "setcopy") initial = JavaHashSetCopyCapacity(n);
    EXPECT_EQ(Join(JavaHashMapOrder(keys, initial)), want) << n << " " << kind;
    ++checked;
  }
  EXPECT_EQ(checked, 45);
}

TEST(JavaHashOrderTest, CapacitiesFollowHashMapResize) {
  EXPECT_EQ(JavaHashMapCapacity(std::nullopt, 0), 0u);
  EXPECT_EQ(JavaHashMapCapacity(std::nullopt, 1), 16u);
  EXPECT_EQ(JavaHashMapCapacity(std::nullopt, 12), 16u);
  EXPECT_EQ(JavaHashMapCapacity(std::nullopt, 13), 32u);
  EXPECT_EQ(JavaHashMapCapacity(1, 1), 2u);  // threshold (int) 0.75 == 0
  EXPECT_EQ(JavaHashMapCapacity(3, 3), 4u);
  EXPECT_EQ(JavaHashMapCapacity(4, 4), 8u);
  EXPECT_EQ(JavaHashMapCapacity(6, 6), 8u);
  EXPECT_EQ(JavaHashMapCapacity(7, 7), 16u);
  EXPECT_EQ(JavaCopyCapacity(6), 9u);
  EXPECT_EQ(JavaHashSetCopyCapacity(6), 16u);
  EXPECT_EQ(JavaHashSetCopyCapacity(30), 41u);
}

TEST(JavaStringHashCodeTest, MatchesStringHashCode) {
  EXPECT_EQ(JavaStringHashCode(""), 0);
  EXPECT_EQ(JavaStringHashCode("a"), 97);
  EXPECT_EQ(JavaStringHashCode("Aa"), JavaStringHashCode("BB"));  // 2112, a classic collision
  EXPECT_EQ(JavaStringHashCode("Aa"), 2112);
  EXPECT_EQ(JavaStringHashCode("topic"), 110546223);
  EXPECT_EQ(JavaStringHashCode("polygenelubricants"), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(JavaStringHashCode("\xc3\xa9"), 233);                         // U+00E9
  EXPECT_EQ(JavaStringHashCode("\xf0\x9f\x98\x80"), 55357 * 31 + 56832);  // two UTF-16 units
}

}  // namespace
}  // namespace connectd::jvm
