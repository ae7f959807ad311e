# CMake initial cache (`cmake -C <prefix>/share/cudart-rs/cudart-rs.cmake`)
# that aims a CUDA project at this install prefix instead of the toolkit's
# runtime, with the project's own settings left as they are:
#   - CMAKE_CUDA_RUNTIME_LIBRARY (Static, the default, or Shared) links
#     -lcudart_static or -lcudart: the linker flags below put the prefix's
#     lib64 first among the library folders, so ours is found first; the
#     run path lets the shared build find our libcudart.so.13 at run time.
#   - find_package(CUDAToolkit)'s CUDA::cudart and CUDA::cudart_static take
#     their files from the two cache entries below (FindCUDAToolkit only
#     searches for a library whose entry is not yet set).
# The prefix is found from this file's place (install.sh lays it out).
get_filename_component(_cudart_rs_lib "${CMAKE_CURRENT_LIST_DIR}/../../lib64" ABSOLUTE)
set(CUDA_cudart_LIBRARY "${_cudart_rs_lib}/libcudart.so" CACHE FILEPATH
  "cudart-rs: the shared runtime (CUDA::cudart)")
set(CUDA_cudart_static_LIBRARY "${_cudart_rs_lib}/libcudart_static.a" CACHE FILEPATH
  "cudart-rs: the static runtime (CUDA::cudart_static)")
foreach(_kind EXE SHARED MODULE)
  set(CMAKE_${_kind}_LINKER_FLAGS "-L${_cudart_rs_lib} -Wl,-rpath,${_cudart_rs_lib}"
    CACHE STRING "cudart-rs: the prefix's runtime first")
endforeach()
