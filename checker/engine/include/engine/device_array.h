// A typed, named device buffer that frees itself.
#ifndef ENGINE_DEVICE_ARRAY_H_
#define ENGINE_DEVICE_ARRAY_H_

#include <cstddef>
#include <string>
#include <vector>

#include "engine/backend.h"

namespace engine {

template <typename T>
class DeviceArray {
 public:
  DeviceArray(Backend& backend, std::size_t count, const std::string& name)
      : backend_(&backend), count_(count),
        ptr_(static_cast<T*>(backend.allocate(count * sizeof(T), sizeof(T), name))) {}
  ~DeviceArray() {
    if (ptr_) backend_->release(ptr_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept : backend_(o.backend_), count_(o.count_), ptr_(o.ptr_) {
    o.ptr_ = nullptr;
  }

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }

  void upload(const std::vector<T>& host) {
    if (host.size() != count_) throw Error("upload: host and device sizes differ");
    backend_->copy_to_device(ptr_, host.data(), count_ * sizeof(T));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    backend_->copy_to_host(host.data(), ptr_, count_ * sizeof(T));
    return host;
  }

 private:
  Backend* backend_;
  std::size_t count_;
  T* ptr_;
};

}  // namespace engine

#endif  // ENGINE_DEVICE_ARRAY_H_
