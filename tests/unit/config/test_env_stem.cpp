// SPDX-License-Identifier: Apache-2.0
// Output stem placeholders, the rank suffix and the job id.
#include <map>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "config/env.hpp"
#include "config/output_path.hpp"
#include "tests/support/env_lookup.hpp"

namespace irf::config {
namespace test_env_stem {
namespace {

using test::env_of;

StemContext context(std::optional<int> rank = std::nullopt,
                    std::map<std::string, std::string> env = {}) {
    return StemContext{"app", "node7", 4242, rank, env_of(std::move(env))};
}

TEST(Stem, EveryPlaceholder) {
    EXPECT_EQ(expand_stem("irf-%a-%h-%p", context()), "irf-app-node7-4242");
    EXPECT_EQ(expand_stem("r%r", context(5)), "r5");
    EXPECT_EQ(expand_stem("r%r", context()), "r0");
    EXPECT_EQ(expand_stem("j%j", context(std::nullopt, {{"PBS_JOBID", "12.pbs"}})), "j12.pbs");
    EXPECT_EQ(expand_stem("j%j", context()), "j0");
    EXPECT_EQ(expand_stem("%q{OUT}/x", context(std::nullopt, {{"OUT", "/scratch/u"}})),
              "/scratch/u/x");
    EXPECT_EQ(expand_stem("a%q{UNSET}b", context()), "ab");
    EXPECT_EQ(expand_stem("100%%-%p", context()), "100%-4242");
}

TEST(Stem, AJobIdOrAppNameOfDotsStaysInTheDirectory) {
    // issue 52 item 10: SLURM_JOB_ID=".." made "prof/%j/run" write prof/../run.
    const StemContext dots = context(std::nullopt, {{"SLURM_JOB_ID", ".."}});
    EXPECT_EQ(expand_stem("prof/%j/run", dots), "prof/__/run");
    EXPECT_EQ(expand_stem("%j/run", dots), "__/run");
    EXPECT_EQ(expand_stem("prof/%j", dots), "prof/__");
    const StemContext dot = context(std::nullopt, {{"SLURM_JOB_ID", "."}});
    EXPECT_EQ(expand_stem("prof/%j%j/run", dot), "prof/__/run"); // two values make ".."
    EXPECT_EQ(expand_stem("prof/%j/run", dot), "prof/_/run");
    StemContext app = context();
    app.app = "..";
    EXPECT_EQ(expand_stem("out/%a/x", app), "out/__/x");
    // Dots beside other text are a file name, kept; %q is inserted as is (it may name "..").
    EXPECT_EQ(expand_stem("prof/%j.x/run", dots), "prof/...x/run");
    EXPECT_EQ(expand_stem("p-%j", dots), "p-..");
    EXPECT_EQ(expand_stem("%q{UP}/run", context(std::nullopt, {{"UP", ".."}})), "../run");
}

TEST(Stem, AComponentThatExpandsToNothingIsRefused) {
    // "%q{UNSET}/p" would write /p.json at the root, "%q{EMPTY}" a hidden ".json" in the cwd,
    // "dir/%q{UNSET}" a hidden "dir/.json" (issue 22 item 12).
    const StemContext c = context(std::nullopt, {{"EMPTY", ""}});
    for (const char* stem : {"%q{UNSET}/p", "%q{EMPTY}", "dir/%q{UNSET}", "a/%q{EMPTY}/b"}) {
        EXPECT_THROW((void)expand_stem(stem, c), std::invalid_argument) << stem;
    }
    try {
        (void)expand_stem("%q{UNSET}/p", c);
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "IRF_OUTPUT=%q{UNSET}/p: \"%q{UNSET}\" expands to an empty path "
                               "component (unset or empty variable?)");
    }
    // Components without placeholders stay as written: "/abs" and "a//b" are the user's choice.
    EXPECT_EQ(expand_stem("/abs/%q{UNSET}x", c), "/abs/x");
    EXPECT_EQ(expand_stem("a//b", c), "a//b");
}

TEST(Stem, SlashesInNamesCannotEscape) {
    StemContext c = context(std::nullopt, {{"SLURM_JOB_ID", "1/2"}});
    c.app = "../evil";
    c.host = "a/b";
    EXPECT_EQ(expand_stem("%a-%h-%j", c), ".._evil-a_b-1_2");
}

TEST(Stem, Check) {
    EXPECT_EQ(check_stem("irf-%a-%h-%p-%r-%j-%q{X}-%%"), "");
    EXPECT_EQ(check_stem("out-%x"), "unknown placeholder %x");
    EXPECT_EQ(check_stem("out%"), "'%' at the end (write %% for a literal %)");
    EXPECT_EQ(check_stem("%q"), "%q needs a variable name in braces, e.g. %q{USER}");
    EXPECT_EQ(check_stem("%q{}"), "%q needs a variable name in braces, e.g. %q{USER}");
    EXPECT_EQ(check_stem("%q{X"), "%q needs a variable name in braces, e.g. %q{USER}");
    EXPECT_EQ(check_stem(""), "empty stem");
    EXPECT_EQ(check_stem("dir/"), "stem names a directory (add a file name after the '/')");
}

TEST(Stem, RankSuffixOnlyInAParallelJobWithoutR) {
    EXPECT_EQ(stem_with_rank("irf-%p", std::nullopt), "irf-%p");
    EXPECT_EQ(stem_with_rank("irf-%p", 3), "irf-%p-r%r");
    EXPECT_EQ(stem_with_rank("run-%r", 3), "run-%r");
    EXPECT_EQ(stem_with_rank("run-%%r", 3), "run-%%r-r%r"); // "%%r" is a literal "%r"
    EXPECT_EQ(expand_stem(stem_with_rank("irf-%p", 3), context(3)), "irf-4242-r3");
}

TEST(Stem, JobIdOrder) {
    EXPECT_EQ(detect_job_id(env_of({{"SLURM_JOB_ID", "1"}, {"LSB_JOBID", "2"}})), "1");
    EXPECT_EQ(detect_job_id(env_of({{"LSB_JOBID", "2"}})), "2");
    EXPECT_EQ(detect_job_id(env_of({{"FLUX_JOB_ID", "f3"}})), "f3");
    EXPECT_EQ(detect_job_id(env_of({{"JOB_ID", "9"}})), "9");
    EXPECT_FALSE(detect_job_id(env_of({})).has_value());
}

// Issue #39 item 11: `%q{V}` with V="out/" left the file name empty (a hidden "out/.json").
TEST(Stem, AValueEndingInASlashIsRefused) {
    const StemContext c = context(std::nullopt, {{"V", "out/"}});
    EXPECT_THROW((void)expand_stem("%q{V}", c), std::invalid_argument);
    EXPECT_EQ(expand_stem("%q{V}p", c), "out/p");
}

// Issue #39 item 7: a 300-byte file name or a 100,000-byte %q{V} value passed the pre-run
// check, and at exit the profile was lost to ENAMETOOLONG.
TEST(Stem, NamesOverNameMaxOrPathMaxAreRefusedBeforeTheRun) {
    EXPECT_EQ(output_name_problem("dir/" + std::string(220, 'x')), "");
    EXPECT_NE(output_name_problem(std::string(300, 'x')).find("NAME_MAX"), std::string::npos);
    EXPECT_NE(output_name_problem(std::string(240, 'x')).find("NAME_MAX"), std::string::npos);
    std::string deep;
    while (deep.size() < 100000) {
        deep += std::string(200, 'd') + "/";
    }
    EXPECT_NE(output_name_problem(deep + "p").find("PATH_MAX"), std::string::npos);
    EXPECT_NE(output_name_problem(std::string(300, 'd') + "/p").find("directory name"),
              std::string::npos);
    EXPECT_NE(output_dir_problem(std::string(300, 'x')).find("NAME_MAX"), std::string::npos);
}

TEST(Stem, AForkedChildWritesBesideItsParentUnlessThePidTellsThemApart) {
    // Issue 52 item 2: without %p a child exiting after its parent replaced the parent's file.
    EXPECT_EQ(forked_child_stem("out", "app", std::nullopt, "/d", 100, 200), "/d/out-child200");
    EXPECT_EQ(forked_child_stem("out-%p", "app", std::nullopt, "/d", 100, 200), "/d/out-200");
    EXPECT_EQ(forked_child_stem("%a/x", "app", 3, "/d", 100, 200), "/d/app/x-r3-child200");
    EXPECT_EQ(process_output_stem("x-%p", "app", std::nullopt, "", 77), "x-77");
}

} // namespace
} // namespace test_env_stem
} // namespace irf::config
