// Placeholder replaced below.
#include <xfuse/xfuse.hpp>
int main() { return 0; }
