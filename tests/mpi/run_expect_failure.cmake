# Runs a command that must fail: nonzero exit status AND output matching EXPECT_REGEX (and not FORBID_REGEX).
# CTest alone can check one or the other (WILL_FAIL, PASS_REGULAR_EXPRESSION ignores the exit code), not both.
# With -DEXPECT_SUCCESS=1 the command must succeed instead (exit status 0), with the same checks of its output: a
# warning that must be printed by a job that otherwise runs normally.
# EXPECT_ALSO_REGEX is a second pattern the output must match too, in any order relative to the first (stdout and
# stderr interleave as they come).
#   cmake -DCMD=<program|arg|arg...> -DEXPECT_REGEX=<regex> [-DEXPECT_ALSO_REGEX=<regex>] [-DFORBID_REGEX=<regex>]
#         [-DEXPECT_SUCCESS=1] -P run_expect_failure.cmake
# Arguments in CMD are separated by '|' because ';' would be split by add_test.
string(REPLACE "|" ";" command "${CMD}")
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output TIMEOUT 170)
message("---- output ----\n${output}---- exit status: ${status}")
# A job ended by mpiexec's --timeout (status 124) or by the TIMEOUT above hung: its output may already hold the
# expected error, but an error that leaves the job hanging is a failure of its own.
if(status STREQUAL "124" OR status MATCHES "timeout")
  message(FATAL_ERROR "the job hung until it was killed (${status})")
elseif(EXPECT_SUCCESS AND NOT status STREQUAL "0")
  message(FATAL_ERROR "expected exit status 0")
elseif(NOT EXPECT_SUCCESS AND status STREQUAL "0")
  message(FATAL_ERROR "expected a nonzero exit status")
endif()
if(NOT output MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}'")
endif()
if(DEFINED EXPECT_ALSO_REGEX AND NOT output MATCHES "${EXPECT_ALSO_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_ALSO_REGEX}'")
endif()
if(DEFINED FORBID_REGEX AND output MATCHES "${FORBID_REGEX}")
  message(FATAL_ERROR "output matches '${FORBID_REGEX}'")
endif()
