// SPDX-License-Identifier: Apache-2.0
// A YAML event pass that refuses aliases: the ceilings schema needs none, and each alias of a
// large node multiplies the work of every later step (100k aliases of a 1 MB string under the
// 4 MiB limit exhausted memory; 500k made `irf-report ceilings` print 105 MB).
#include "config/yaml_guard.hpp"

#include <sstream>

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/emitterstyle.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "config/ceilings_yaml.hpp"

namespace irf::config {
namespace {

/// Throws at the first alias; every other event is accepted (anchors alone are harmless).
class AliasRefuser final : public YAML::EventHandler {
public:
    explicit AliasRefuser(std::string origin) : m_origin(std::move(origin)) {}
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
        throw CeilingsError(m_origin + ":" + std::to_string(mark.line + 1) +
                            ": (document): YAML aliases (*name) are not allowed in ceilings "
                            "files; write the value out");
    }
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}

private:
    std::string m_origin;
};

} // namespace

void refuse_yaml_aliases(const std::string& text, const std::string& origin) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    AliasRefuser refuser(origin);
    parser.HandleNextDocument(refuser);
}

} // namespace irf::config
