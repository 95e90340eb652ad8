// SPDX-License-Identifier: Apache-2.0
#include "model/profile/version.hpp"

namespace irf::model {

const char* version() {
    return IRF_VERSION;
}

} // namespace irf::model
