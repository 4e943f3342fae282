# Runs a command that must fail: nonzero exit status AND output matching EXPECT_REGEX (and not FORBID_REGEX).
# CTest alone can check one or the other (WILL_FAIL, PASS_REGULAR_EXPRESSION ignores the exit code), not both.
#   cmake -DCMD=<program|arg|arg...> -DEXPECT_REGEX=<regex> [-DFORBID_REGEX=<regex>] -P run_expect_failure.cmake
# Arguments in CMD are separated by '|' because ';' would be split by add_test.
string(REPLACE "|" ";" command "${CMD}")
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output TIMEOUT 170)
message("---- output ----\n${output}---- exit status: ${status}")
if(status STREQUAL "0")
  message(FATAL_ERROR "expected a nonzero exit status")
endif()
if(NOT output MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}'")
endif()
if(DEFINED FORBID_REGEX AND output MATCHES "${FORBID_REGEX}")
  message(FATAL_ERROR "output matches '${FORBID_REGEX}'")
endif()
