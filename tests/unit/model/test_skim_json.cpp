// SPDX-License-Identifier: Apache-2.0
// skim_json, the check of one JSON value that lean reads use instead of nlohmann's lexer: it must
// never accept what nlohmann's strict parser rejects (the full read would then fail where the
// lean read passed), and its value and depth counts must be those the one-thread read counts.
#include <cctype>
#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "model/profile/json_reader.hpp"
#include "model/profile/profile_json_stream.hpp"

namespace irf::test {
namespace test_skim_json {
namespace {

using model::skim_json;

/// skim_json of the whole of `text`, from offset 0.
std::optional<model::Skimmed> skim_of(const std::string& text) {
    return skim_json(text.data(), 0, text.size());
}

/// True when skim_json takes `text` as one value and nothing follows it.
bool skim_accepts_all(const std::string& text) {
    const auto s = skim_of(text);
    return s && s->end == text.size();
}

/// The values the one-thread read counts in `text` (parse_streamed, no kernel surcharge).
std::size_t skim_streamed_values(const std::string& text) {
    model::JsonLimits limits;
    limits.values_per_kernel = 0;
    limits.max_depth = 1000; // skim_json's own limit (256) is tested apart
    std::size_t counted = 0;
    model::StreamSpec spec{limits, text.size(), nullptr, nullptr};
    spec.values_counted = &counted;
    (void)model::parse_streamed(text, spec);
    return counted;
}

/// True when the one-thread read of `text` stays within a nesting limit of `max_depth`.
bool skim_streamed_within_depth(const std::string& text, int max_depth) {
    model::JsonLimits limits;
    limits.max_depth = max_depth;
    model::StreamSpec spec{limits, text.size(), nullptr, nullptr};
    try {
        (void)model::parse_streamed(text, spec);
    } catch (const model::FormatError&) {
        return false;
    }
    return true;
}

/// Checks that what skim_json accepted of `text` (from 0 to s.end) nlohmann accepts, with the
/// values and depth the one-thread read counts.
void skim_expect_sound(const std::string& text, const model::Skimmed& s) {
    const std::string value = text.substr(0, s.end);
    ASSERT_TRUE(nlohmann::json::accept(value)) << "skim_json accepted " << value;
    EXPECT_EQ(s.values, skim_streamed_values(value)) << value;
    EXPECT_TRUE(skim_streamed_within_depth(value, s.depth)) << value;
    if (s.depth > 0) {
        EXPECT_FALSE(skim_streamed_within_depth(value, s.depth - 1)) << value;
    }
}

/// One case: the text, whether nlohmann's strict parser takes it whole, and whether skim_json
/// does (the same, except where skim_json refuses more by design).
struct SkimCase {
    std::string text;
    bool nlohmann;
    bool skim;
};

// What both accept: every kind of value and every one-character escape.
const std::vector<SkimCase> k_skim_valid = {
    {"0", true, true},
    {"-0", true, true},
    {"0.5", true, true},
    {"-12.250", true, true},
    {"1E-5", true, true},
    {"1e+2", true, true},
    {"1e-400", true, true}, // underflows to 0: nlohmann takes it
    {"123456789012345678901234567890", true, true},
    {"true", true, true},
    {"false", true, true},
    {"null", true, true},
    {R"("")", true, true},
    {R"("plain text ~")", true, true},
    {R"("\" \\ \/ \b \f \n \r \t")", true, true},
    {"[]", true, true},
    {"{}", true, true},
    {"[ ]", true, true},
    {"{ \"a\" : 1 , \"b\" : [ true , null ] }", true, true},
    {"{\n\t\"a\":\r\n[]}", true, true},
    {R"({"a":{"b":{"c":[[[1]]]}},"d":"}]"})", true, true},
    {R"([{"":""},{"k\"}":"v\\"}])", true, true},
};

// What nlohmann accepts and skim_json refuses by its contract (the full read then decides), and
// the edge of its nesting limit.
const std::vector<SkimCase> k_skim_stricter = {
    {R"("\u0041")", true, false},
    {R"("\uD83D\uDE00")", true, false},                          // a surrogate pair
    {"\"\xc3\xa9\"", true, false},                               // UTF-8 "e acute"
    {"\"\x7f\"", true, false},                                   // DEL
    {"1e308", true, false},                                      // 1 + 308 digits past 300
    {"1e+00001", true, false},                                   // five exponent digits
    {std::string(256, '[') + std::string(256, ']'), true, true}, // the deepest it takes
    {std::string(257, '[') + std::string(257, ']'), true, false},
};

// What both refuse.
const std::vector<SkimCase> k_skim_invalid = {
    {"", false, false},
    {"01", false, false},
    {"-01", false, false},
    {"00", false, false},
    {"1.", false, false},
    {".5", false, false},
    {"+1", false, false},
    {"-", false, false},
    {"1e", false, false},
    {"1e+", false, false},
    {"1.e5", false, false},
    {"1e309", false, false},  // overflows a double
    {"-1e400", false, false}, // so does this
    {R"("\x")", false, false},
    {R"("\uD800")", false, false}, // a lone high surrogate
    {R"("\uDC00")", false, false}, // a lone low surrogate
    {"\"a\tb\"", false, false},    // an unescaped control character
    {std::string("\"a\0b\"", 5), false, false},
    {"\"\x1f\"", false, false},
    {"\"\xff\"", false, false},  // not UTF-8
    {"\"\xc3\"", false, false},  // a truncated UTF-8 sequence
    {"\"abc", false, false},     // unterminated
    {"\"abc\\\"", false, false}, // the last quote escaped
    {"[1,]", false, false},      // trailing commas
    {"{\"a\":1,}", false, false},
    {"[,1]", false, false},
    {"[1 2]", false, false},
    {"{\"a\" 1}", false, false},
    {"{\"a\":}", false, false},
    {"{1:2}", false, false},
    {"{'a':1}", false, false}, // single quotes
    {"'a'", false, false},
    {"NaN", false, false},
    {"Infinity", false, false},
    {"-Infinity", false, false},
    {"tru", false, false},
    {"nul", false, false},
    {"True", false, false},
    {"[", false, false},
    {"]", false, false},
    {"[}", false, false},
    {"{]", false, false},
};

void skim_check_table(const std::vector<SkimCase>& cases) {
    for (const SkimCase& c : cases) {
        SCOPED_TRACE(c.text);
        EXPECT_EQ(nlohmann::json::accept(c.text), c.nlohmann);
        EXPECT_EQ(skim_accepts_all(c.text), c.skim);
        if (const auto s = skim_of(c.text)) {
            skim_expect_sound(c.text, *s);
        }
    }
}

TEST(SkimJson, ValidValuesOfEveryKindAreAccepted) {
    skim_check_table(k_skim_valid);
}

TEST(SkimJson, RefusesWhatItsContractLeavesToNlohmann) {
    skim_check_table(k_skim_stricter);
}

TEST(SkimJson, RefusesWhatNlohmannRejects) {
    skim_check_table(k_skim_invalid);
}

// Ends, values (containers included) and depths counted by hand.
TEST(SkimJson, EndValuesAndDepthAreCountedByHand) {
    // object, array, 1, 2, object, null, "x": 7 values; object > array > object: depth 3.
    const std::string nested = R"({"a":[1,2,{"b":null}],"c":"x"})";
    const auto s = skim_of(nested);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->end, nested.size());
    EXPECT_EQ(s->values, 7u);
    EXPECT_EQ(s->depth, 3);

    const auto empty = skim_of("[]");
    ASSERT_TRUE(empty);
    EXPECT_EQ(empty->end, 2u);
    EXPECT_EQ(empty->values, 1u);
    EXPECT_EQ(empty->depth, 1);

    const auto scalar = skim_of("0");
    ASSERT_TRUE(scalar);
    EXPECT_EQ(scalar->values, 1u);
    EXPECT_EQ(scalar->depth, 0);

    // "ab\"c" is 7 characters; the value ends there, whatever follows.
    const auto quoted = skim_of(R"("ab\"c", 1)");
    ASSERT_TRUE(quoted);
    EXPECT_EQ(quoted->end, 7u);
    EXPECT_EQ(quoted->values, 1u);

    // From offset 2: "[1, 2]" ends at 8 (values: the array and 2 numbers).
    const std::string inner = "xx[1, 2] tail";
    const auto from_two = skim_json(inner.data(), 2, inner.size());
    ASSERT_TRUE(from_two);
    EXPECT_EQ(from_two->end, 8u);
    EXPECT_EQ(from_two->values, 3u);
    EXPECT_EQ(from_two->depth, 1);

    const auto number = skim_of("-0.5e+3]");
    ASSERT_TRUE(number);
    EXPECT_EQ(number->end, 7u);
    EXPECT_EQ(skim_of("true,")->end, 4u);
    EXPECT_FALSE(skim_json(inner.data(), inner.size(), inner.size())); // nothing left
}

// A kernel as irf writes it (no \u escapes, ASCII, short exponents): the kernel of the
// truncation and random tests.
const std::string k_skim_kernel =
    R"({"name":"gemm<float, 4>","grid":[128,1,1],"block":[256,1,1],"launches":12,)"
    R"("time_ns":{"total":1.5e3,"min":-0.25,"max":1E2},"counters":{"sm__inst":1024,)"
    R"("l2\"x":0},"analysis":{"ai":[0.5,null,true,false],"note":"a\\b\n{[\"]}"},"w":[]})";

// Every strict prefix of a valid object is incomplete: both refuse it, and skim_json reads no byte
// past the size it is given (the rest of the buffer would complete the object).
TEST(SkimJson, EveryTruncationOfAValidObjectIsRefused) {
    ASSERT_TRUE(nlohmann::json::accept(k_skim_kernel));
    const auto whole = skim_of(k_skim_kernel);
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->end, k_skim_kernel.size());
    skim_expect_sound(k_skim_kernel, *whole);
    for (std::size_t n = 0; n < k_skim_kernel.size(); ++n) {
        EXPECT_FALSE(skim_json(k_skim_kernel.data(), 0, n)) << n;
        EXPECT_FALSE(nlohmann::json::accept(k_skim_kernel.substr(0, n))) << n;
    }
}

/// True when `text` holds what skim_json refuses by design although nlohmann may accept it: a
/// \u escape, a byte past 0x7e, or a number token whose integer digits plus exponent pass 300
/// or whose exponent has more than 4 digits.
bool skim_beyond_contract(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c > 0x7e || (c == '\\' && i + 1 < text.size() && text[i + 1] == 'u')) {
            return true;
        }
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != 'e' && text[i] != 'E') {
            continue;
        }
        std::size_t b = i;
        while (b > 0 &&
               (std::isdigit(static_cast<unsigned char>(text[b - 1])) != 0 || text[b - 1] == '.')) {
            --b;
        }
        std::size_t whole = 0;
        while (b + whole < i && text[b + whole] != '.') {
            ++whole;
        }
        std::size_t e = i + 1;
        if (e < text.size() && (text[e] == '+' || text[e] == '-')) {
            ++e;
        }
        const std::size_t start = e;
        while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e])) != 0) {
            ++e;
        }
        const std::size_t n = e - start;
        if (n > 4 || (n > 0 && text[i + 1] != '-' &&
                      static_cast<long>(whole) + std::stol(text.substr(start, n)) > 300)) {
            return true;
        }
    }
    return false;
}

// A fixed-seed differential test: 4,000 mutations of the kernel. Whatever skim_json accepts
// nlohmann accepts, with the same counts; outside what the contract leaves to nlohmann, both
// agree.
TEST(SkimJson, MutatedKernelsAgreeWithNlohmann) {
    const std::string alphabet =
        std::string("{}[]\",:0123456789eE.+-\\ tfnrua'x") + '\0' + "\x1f\x7f\x80\xff\t\n";
    std::mt19937 rng(20261127);
    std::size_t accepted = 0;
    std::size_t refused = 0;
    std::size_t beyond = 0;
    for (int round = 0; round < 4000; ++round) {
        std::string text = k_skim_kernel;
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng() % text.size();
            const char c = alphabet[rng() % alphabet.size()];
            switch (rng() % 4) {
            case 0:
                text[at] = c;
                break;
            case 1:
                text.insert(at, 1, c);
                break;
            case 2:
                text.erase(at, 1 + rng() % 4);
                break;
            default:
                text.insert(at, text.substr(rng() % text.size(), 1 + rng() % 8));
                break;
            }
            if (text.empty()) {
                text = "x";
            }
        }
        SCOPED_TRACE(text);
        const auto s = skim_of(text);
        if (s) {
            skim_expect_sound(text, *s);
        }
        const bool skim_all = s && s->end == text.size();
        const bool reference = nlohmann::json::accept(text);
        if (skim_all) {
            ++accepted;
            ASSERT_TRUE(reference);
        } else {
            ++refused;
        }
        if (skim_beyond_contract(text)) {
            ++beyond;
        } else {
            ASSERT_EQ(skim_all, reference);
        }
    }
    // Both sides of the comparison were exercised.
    EXPECT_GT(accepted, 300u);
    EXPECT_GT(refused, 1000u);
    EXPECT_LT(beyond, 800u);
}

} // namespace
} // namespace test_skim_json
} // namespace irf::test
