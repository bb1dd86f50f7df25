# Install-time script (cmake/Install.cmake): every ELF file installed under bin/ and
# lib/connectd/ is stripped, and its debug info kept in lib/debug/.build-id/<xx>/<rest>.debug,
# where gdb and debuginfod clients look it up by build ID (Debian's -dbgsym layout), with a
# .gnu_debuglink in the stripped file as well. A file without debug info is only stripped.
set(root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
find_program(objcopy NAMES objcopy REQUIRED)
find_program(readelf NAMES readelf REQUIRED)
file(GLOB_RECURSE candidates LIST_DIRECTORIES false
     "${root}/bin/*" "${root}/${CONNECTD_INSTALL_LIBDIR}/*")
foreach(file IN LISTS candidates)
  if(IS_SYMLINK "${file}")
    continue()
  endif()
  file(READ "${file}" magic LIMIT 4 HEX)
  if(NOT magic STREQUAL "7f454c46")
    continue()
  endif()
  execute_process(COMMAND "${readelf}" --wide --sections --notes "${file}"
                  OUTPUT_VARIABLE elf RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "readelf could not read ${file}")
  endif()
  if(elf MATCHES "\\.debug_info")
    if(NOT elf MATCHES "Build ID: ([0-9a-f][0-9a-f])([0-9a-f]+)")
      message(FATAL_ERROR "${file} has no build ID (linked without --build-id)")
    endif()
    set(debug "${root}/lib/debug/.build-id/${CMAKE_MATCH_1}/${CMAKE_MATCH_2}.debug")
    get_filename_component(debug_dir "${debug}" DIRECTORY)
    file(MAKE_DIRECTORY "${debug_dir}")
    execute_process(COMMAND "${objcopy}" --only-keep-debug --compress-debug-sections "${file}" "${debug}"
                    RESULT_VARIABLE failed)
    if(failed)
      message(FATAL_ERROR "objcopy --only-keep-debug failed on ${file}")
    endif()
    file(CHMOD "${debug}" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
    execute_process(COMMAND "${objcopy}" --strip-debug --strip-unneeded --remove-section=.comment
                            "--add-gnu-debuglink=${debug}" "${file}" RESULT_VARIABLE failed)
    message(STATUS "Stripped: ${file} (debug info: ${debug})")
  else()
    execute_process(COMMAND "${objcopy}" --strip-unneeded --remove-section=.comment "${file}"
                    RESULT_VARIABLE failed)
    message(STATUS "Stripped: ${file}")
  endif()
  if(failed)
    message(FATAL_ERROR "objcopy could not strip ${file}")
  endif()
endforeach()
