// SPDX-License-Identifier: Apache-2.0
#include "common/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <string>

#include "common/environment.hpp"

namespace irf::common {

std::size_t terminal_columns(int fd) {
    if (const char* columns = process_env("COLUMNS"); columns != nullptr && columns[0] != '\0') {
        const std::string text = columns;
        if (text.size() <= 6 && text.find_first_not_of("0123456789") == std::string::npos) {
            return static_cast<std::size_t>(std::stoul(text));
        }
    }
    winsize size{};
    if (::isatty(fd) == 1 && ::ioctl(fd, TIOCGWINSZ, &size) == 0) {
        return size.ws_col;
    }
    return 0;
}

} // namespace irf::common
