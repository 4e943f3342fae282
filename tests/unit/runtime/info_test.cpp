// Info objects: insertion order, replacement in place, the key and value limits (errors at the first length past
// them, never truncation), nthkey, dup independence, erase, and the content of MPI_INFO_ENV.
#include <gtest/gtest.h>

#include <unistd.h>

#include <random>
#include <string>
#include <vector>

#include "runtime/info.hpp"

using namespace strata;
using namespace strata::runtime;

namespace {

std::vector<std::string> keys_of(const Info& info) {
  std::vector<std::string> keys;
  for (int i = 0; i < info.nkeys(); ++i) {
    std::string k;
    EXPECT_TRUE(info.nthkey(i, k).ok());
    keys.push_back(k);
  }
  return keys;
}

TEST(Info, KeepsInsertionOrderAndReplacesInPlace) {
  Info info;
  EXPECT_EQ(info.nkeys(), 0);
  ASSERT_TRUE(info.set("zeta", "1").ok());
  ASSERT_TRUE(info.set("alpha", "2").ok());
  ASSERT_TRUE(info.set("mid", "3").ok());
  EXPECT_EQ(keys_of(info), (std::vector<std::string>{"zeta", "alpha", "mid"}));
  ASSERT_TRUE(info.set("alpha", "two").ok());
  EXPECT_EQ(keys_of(info), (std::vector<std::string>{"zeta", "alpha", "mid"}));
  ASSERT_NE(info.get("alpha"), nullptr);
  EXPECT_EQ(*info.get("alpha"), "two");
  EXPECT_EQ(info.get("Alpha"), nullptr);  // keys are case sensitive
  ASSERT_TRUE(info.set("empty", "").ok());
  EXPECT_EQ(*info.get("empty"), "");
}

TEST(Info, KeyAndValueLimits) {
  Info info;
  const std::string key255(255, 'k'), key256(256, 'k'), val1024(1024, 'v'), val1025(1025, 'v');
  EXPECT_TRUE(info.set(key255, "x").ok());
  EXPECT_TRUE(info.set("long", val1024).ok());
  EXPECT_EQ(info.get("long")->size(), 1024u);

  Status s = info.set(key256, "x");
  EXPECT_EQ(s.error_class, kErrInfoKey);
  EXPECT_NE(s.message.find("256 characters"), std::string::npos) << s.message;
  s = info.set("", "x");
  EXPECT_EQ(s.error_class, kErrInfoKey);
  s = info.set("toolong", val1025);
  EXPECT_EQ(s.error_class, kErrInfoValue);
  EXPECT_NE(s.message.find("1025 characters"), std::string::npos) << s.message;
  // Rejected, not truncated: nothing was stored, and an existing value is kept.
  EXPECT_EQ(info.get("toolong"), nullptr);
  EXPECT_EQ(info.set("long", val1025).error_class, kErrInfoValue);
  EXPECT_EQ(*info.get("long"), val1024);
  EXPECT_EQ(info.nkeys(), 2);

  EXPECT_TRUE(check_key(key255).ok());
  EXPECT_EQ(check_key(key256).error_class, kErrInfoKey);
  EXPECT_TRUE(check_value(val1024).ok());
  EXPECT_EQ(check_value(val1025).error_class, kErrInfoValue);
}

TEST(Info, NthKeyRange) {
  Info info;
  std::string k = "untouched";
  EXPECT_EQ(info.nthkey(0, k).error_class, kErrArg);
  ASSERT_TRUE(info.set("a", "1").ok());
  ASSERT_TRUE(info.set("b", "2").ok());
  EXPECT_EQ(info.nthkey(-1, k).error_class, kErrArg);
  EXPECT_EQ(info.nthkey(2, k).error_class, kErrArg);
  EXPECT_EQ(k, "untouched");
  ASSERT_TRUE(info.nthkey(1, k).ok());
  EXPECT_EQ(k, "b");
}

TEST(Info, DupIsIndependent) {
  Info a;
  ASSERT_TRUE(a.set("x", "1").ok());
  ASSERT_TRUE(a.set("y", "2").ok());
  Info b = a.dup();
  ASSERT_TRUE(b.set("x", "changed").ok());
  ASSERT_TRUE(b.set("z", "3").ok());
  ASSERT_TRUE(a.erase("y").ok());
  EXPECT_EQ(*a.get("x"), "1");
  EXPECT_EQ(keys_of(a), (std::vector<std::string>{"x"}));
  EXPECT_EQ(*b.get("x"), "changed");
  EXPECT_EQ(keys_of(b), (std::vector<std::string>{"x", "y", "z"}));
}

TEST(Info, EraseKeepsOrderAndReportsMissingKeys) {
  Info info;
  for (const char* k : {"a", "b", "c", "d"}) ASSERT_TRUE(info.set(k, k).ok());
  ASSERT_TRUE(info.erase("b").ok());
  EXPECT_EQ(keys_of(info), (std::vector<std::string>{"a", "c", "d"}));
  Status s = info.erase("b");
  EXPECT_EQ(s.error_class, kErrInfoNokey);
  EXPECT_NE(s.message.find("\"b\""), std::string::npos) << s.message;
  EXPECT_EQ(info.nkeys(), 3);
  ASSERT_TRUE(info.set("b", "again").ok());  // a re-added key goes to the end
  EXPECT_EQ(keys_of(info), (std::vector<std::string>{"a", "c", "d", "b"}));
}

TEST(Info, RandomOperationsMatchModel) {
  // A model: a vector of pairs searched linearly, written independently of Info's own.
  std::mt19937 rng(77);
  Info info;
  std::vector<std::pair<std::string, std::string>> model;
  auto find = [&](const std::string& k) {
    for (std::size_t i = 0; i < model.size(); ++i)
      if (model[i].first == k) return static_cast<int>(i);
    return -1;
  };
  for (int step = 0; step < 5000; ++step) {
    const std::string key = "k" + std::to_string(rng() % 20);
    const std::string value = std::to_string(rng() % 1000);
    if (rng() % 3 == 0) {
      const int at = find(key);
      ASSERT_EQ(info.erase(key).error_class, at < 0 ? kErrInfoNokey : 0);
      if (at >= 0) model.erase(model.begin() + at);
    } else {
      ASSERT_TRUE(info.set(key, value).ok());
      const int at = find(key);
      if (at < 0)
        model.emplace_back(key, value);
      else
        model[at].second = value;
    }
    ASSERT_EQ(info.nkeys(), static_cast<int>(model.size()));
    for (std::size_t i = 0; i < model.size(); ++i) {
      std::string k;
      ASSERT_TRUE(info.nthkey(static_cast<int>(i), k).ok());
      ASSERT_EQ(k, model[i].first);
      ASSERT_EQ(*info.get(k), model[i].second);
    }
  }
}

TEST(Info, EnvironmentFromGivenFacts) {
  EnvFacts facts;
  facts.argv = {"./app", "-n", "3"};
  facts.maxprocs = 4;
  facts.host = "node7";
  facts.thread_level = 2;
  const Info env = environment_info(facts);
  EXPECT_EQ(*env.get("command"), "./app");
  EXPECT_EQ(*env.get("argv"), "-n 3");
  EXPECT_EQ(*env.get("maxprocs"), "4");
  EXPECT_EQ(*env.get("host"), "node7");
  EXPECT_EQ(*env.get("thread_level"), "MPI_THREAD_SERIALIZED");
  ASSERT_NE(env.get("arch"), nullptr);
  EXPECT_FALSE(env.get("arch")->empty());
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  EXPECT_EQ(*env.get("wdir"), cwd);
  EXPECT_EQ(keys_of(env),
            (std::vector<std::string>{"command", "argv", "maxprocs", "host", "arch", "wdir", "thread_level"}));
}

TEST(Info, EnvironmentFromThisProcess) {
  // No facts: the command comes from /proc/self/cmdline (this test binary), unknown keys are left out.
  const Info env = environment_info(EnvFacts{});
  ASSERT_NE(env.get("command"), nullptr);
  EXPECT_NE(env.get("command")->find("strata_unit_tests"), std::string::npos) << *env.get("command");
  EXPECT_EQ(env.get("maxprocs"), nullptr);
  EXPECT_EQ(env.get("thread_level"), nullptr);
  ASSERT_NE(env.get("host"), nullptr);
  EXPECT_FALSE(env.get("host")->empty());
}

}  // namespace
