# Runs a job that must fail with exactly STATUS and print a line matching EXPECT_REGEX.
#   cmake -DCMD=<program|arg|...> -DSTATUS=<n> -DEXPECT_REGEX=<regex> -P run_job_failure.cmake
string(REPLACE "|" ";" command "${CMD}")
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output TIMEOUT 170)
message("---- output ----\n${output}---- exit status: ${status}")
if(NOT status STREQUAL "${STATUS}")
  message(FATAL_ERROR "expected exit status ${STATUS}, got ${status} (124 means the job hung until --timeout)")
endif()
if(NOT output MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match '${EXPECT_REGEX}'")
endif()
if(output MATCHES "DID NOT ABORT")
  message(FATAL_ERROR "a blocked rank returned from MPI_Recv")
endif()
