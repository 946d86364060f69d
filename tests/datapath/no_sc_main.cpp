// dp_tests and dp_rtl_tests run under GoogleTest's main and never elaborate a SystemC design, but they link the
// SystemC model library: libsystemc.so refers to sc_main, which every program linking it must define. Without
// optimisation (the sanitizer build) nothing inlines the SystemC calls away, the library becomes needed, and the
// link fails without this definition. Declared extern "C" as in <systemc>.
extern "C" int sc_main(int /*argc*/, char** /*argv*/) { return 0; }
