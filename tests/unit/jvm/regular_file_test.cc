// ReadRegularFile (jvm/regular_file.h): what a config names is read only if it is a regular file
// of bounded size; a directory, a device or a FIFO gets an error at once, never an exception, a
// wait or an endless read.
#include "jvm/regular_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

namespace connectd::jvm {
namespace {

using ::testing::HasSubstr;

TEST(ReadRegularFileTest, ReadsARegularFileAndRefusesEverythingElse) {
  const std::string dir = ::testing::TempDir();
  const std::string file = dir + "/regular-file-test.txt";
  std::ofstream(file) << "key=value\n";
  std::string error;
  EXPECT_EQ(ReadRegularFile(file, 100, error), "key=value\n");
  EXPECT_EQ(ReadRegularFile(file, 5, error), std::nullopt);
  EXPECT_THAT(error, HasSubstr("is larger than 5 bytes"));
  for (const std::string& path :
       {std::string("/"), std::string("/dev/zero"), std::string("/dev/null")}) {
    EXPECT_EQ(ReadRegularFile(path, 1 << 20, error), std::nullopt) << path;
    EXPECT_THAT(error, HasSubstr("is not a regular file")) << path;
  }
  const std::string fifo = dir + "/regular-file-test.fifo";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(ReadRegularFile(fifo, 1 << 20, error), std::nullopt);  // returns: no writer awaited
  EXPECT_THAT(error, HasSubstr("is not a regular file"));
  EXPECT_EQ(ReadRegularFile(dir + "/no-such-file", 10, error), std::nullopt);
  EXPECT_THAT(error, HasSubstr("cannot be read"));
  unlink(fifo.c_str());
  unlink(file.c_str());
}

}  // namespace
}  // namespace connectd::jvm
