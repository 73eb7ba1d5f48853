// The one-line progress display on a terminal ("[3/30] N=400"), rewritten in place and cleared
// before anything else is printed; silent when standard error is not a terminal.
#pragma once

#include <unistd.h>

#include <iostream>
#include <string>

namespace cats::driver {

class ProgressLine {
 public:
  ProgressLine() : terminal_(isatty(STDERR_FILENO) != 0) {}
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { clear(); }

  void show(const std::string& line) {
    if (!terminal_) return;
    std::cerr << "\r" << line << std::string(width_ > line.size() ? width_ - line.size() : 0, ' ') << std::flush;
    width_ = line.size();
  }

  void clear() {
    if (width_ == 0) return;
    std::cerr << "\r" << std::string(width_, ' ') << "\r" << std::flush;
    width_ = 0;
  }

 private:
  bool terminal_;
  std::size_t width_ = 0;
};

}  // namespace cats::driver
