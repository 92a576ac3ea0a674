{
  "targets": [
    {
      "target_name": "rvt_verbs",
      "sources": [
        "src/addon.cc",
        "src/bench.cc",
        "src/concurrent.cc",
        "src/concurrent_binding.cc",
        "src/constants.cc",
        "src/convert.cc",
        "src/cq.cc",
        "src/crash.cc",
        "src/device.cc",
        "src/events.cc",
        "src/memory.cc",
        "src/post.cc",
        "src/post_packed.cc",
        "src/qp.cc",
        "src/srq.cc",
        "src/post_loop.c",
        "src/shim.c"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS"],
      "cflags": ["-Wall", "-Wextra"],
      "cflags!": ["-fno-exceptions"],
      "cflags_c": ["-std=gnu11"],
      "cflags_cc": ["-std=gnu++17"],
      "cflags_cc!": ["-fno-exceptions"],
      "libraries": ["-libverbs", "-lpthread"]
    }
  ]
}
