// Must not compile: xfuse in C++17 mode (CTest checks the message: C++20 is required).
#include <xfuse/core.hpp>

int main() {}
