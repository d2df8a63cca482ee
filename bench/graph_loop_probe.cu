// SPDX-License-Identifier: Apache-2.0
// What one pass of a small loop body costs on the GPU, by how it is recorded in a CUDA graph: the
// body is two dependent kernels on 10^4 floats (an update, then the loop flag's), run 2400 times
// as a straight line of nodes, eagerly from the host, and inside a WHILE conditional node whose
// body holds k passes, the passes after the first guarded either by IF conditional nodes or by the
// kernels themselves (they read the flag and return). Each with and without programmatic
// dependent launch (prog 1 / 0). Also a straight line of one statement-shaped kernel alone (a
// node's floor). Plain CUDA, no xfuse: the floors that device loops and replays are measured
// against. Prints microseconds a pass or a node (median of 7 graph launches).
//
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/graph_loop_probe.cu -o graph_loop_probe
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)

constexpr int n = 10000;

__device__ __forceinline__ void pdl() {
#if __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

__global__ void work(float* x, const bool* guard) {
  pdl();
  if (guard && !*guard) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.999f + 0.001f;
}
// y = 0.5 x + y: a statement's shape (two arrays read, one written), one float a thread...
__global__ void axpy(const float* x, float* y) {
  pdl();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.5f * x[i] + y[i];
}
// ...or four (16-byte loads, a quarter of the blocks: the shape of xfuse's rows walk at 10^4 floats).
__global__ void axpy4(const float4* x, float4* y) {
  pdl();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) {
    const float4 a = x[i], b = y[i];
    y[i] = make_float4(0.5f * a.x + b.x, 0.5f * a.y + b.y, 0.5f * a.z + b.z, 0.5f * a.w + b.w);
  }
}
// remaining -= 1; flag = remaining > 0
__global__ void update(long long* remaining, bool* flag, const bool* guard) {
  pdl();
  if (guard && !*guard) return;
  long long r = *remaining - 1;
  *remaining = r;
  *flag = r > 0;
}
__global__ void loop_cond(cudaGraphConditionalHandle h, const bool* flag) {
  pdl();
  cudaGraphSetConditional(h, *flag ? 1u : 0u);
}

struct state {
  float* x;
  float* y;
  long long* remaining;
  bool* flag;
};

void launch(void (*k)(float*, const bool*), dim3 g, dim3 b, cudaStream_t s, bool prog, float* x, const bool* guard) {
  cudaLaunchConfig_t c{};
  c.gridDim = g; c.blockDim = b; c.stream = s;
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  a.val.programmaticStreamSerializationAllowed = 1;
  if (prog) { c.attrs = &a; c.numAttrs = 1; }
  CK(cudaLaunchKernelEx(&c, k, x, guard));
}
void launch_update(cudaStream_t s, bool prog, state st, const bool* guard) {
  cudaLaunchConfig_t c{};
  c.gridDim = 1; c.blockDim = 1; c.stream = s;
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  a.val.programmaticStreamSerializationAllowed = 1;
  if (prog) { c.attrs = &a; c.numAttrs = 1; }
  CK(cudaLaunchKernelEx(&c, update, st.remaining, st.flag, guard));
}
void body(cudaStream_t s, bool prog, state st, const bool* guard = nullptr) {
  launch(work, dim3((n + 255) / 256), dim3(256), s, prog, st.x, guard);
  launch_update(s, prog, st, guard);
}

// Adds a conditional node after what is captured on s; records `rec(stream)` into its body.
template <class SetCond, class Rec>
void conditional(cudaStream_t s, cudaGraphConditionalNodeType type, SetCond set, Rec rec) {
  cudaStreamCaptureStatus status; cudaGraph_t g; const cudaGraphNode_t* deps; const cudaGraphEdgeData* ed; size_t cnt;
  CK(cudaStreamGetCaptureInfo(s, &status, nullptr, &g, &deps, &ed, &cnt));
  cudaGraphConditionalHandle h;
  CK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  set(h, s);
  CK(cudaStreamGetCaptureInfo(s, &status, nullptr, &g, &deps, &ed, &cnt));
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h; p.conditional.type = type; p.conditional.size = 1;
  cudaGraphNode_t node;
  CK(cudaGraphAddNode(&node, g, deps, ed, cnt, &p));
  cudaStream_t bs; CK(cudaStreamCreateWithFlags(&bs, cudaStreamNonBlocking));
  CK(cudaStreamBeginCaptureToGraph(bs, p.conditional.phGraph_out[0], nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed));
  rec(bs, h);
  cudaGraph_t bg; CK(cudaStreamEndCapture(bs, &bg));
  CK(cudaStreamDestroy(bs));
  CK(cudaStreamUpdateCaptureDependencies(s, &node, nullptr, 1, cudaStreamSetCaptureDependencies));
}

float time_graph(cudaGraphExec_t e, cudaStream_t s, state st, long long passes, bool counts = true) {
  std::vector<float> t;
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  for (int r = 0; r < 7; ++r) {
    CK(cudaMemcpyAsync(st.remaining, &passes, sizeof passes, cudaMemcpyHostToDevice, s));
    bool one = true;
    CK(cudaMemcpyAsync(st.flag, &one, 1, cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    CK(cudaGraphLaunch(e, s));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
    long long left; CK(cudaMemcpy(&left, st.remaining, sizeof left, cudaMemcpyDeviceToHost));
    if (counts && left != 0) { std::printf("  remaining %lld != 0\n", left); }
  }
  std::sort(t.begin(), t.end());
  return t[3] * 1000.0f / passes;  // us a pass
}

int main() {
  state st;
  CK(cudaMalloc(&st.x, n * sizeof(float)));
  CK(cudaMemset(st.x, 0, n * sizeof(float)));
  CK(cudaMalloc(&st.y, n * sizeof(float)));
  CK(cudaMemset(st.y, 0, n * sizeof(float)));
  CK(cudaMalloc(&st.remaining, sizeof(long long)));
  CK(cudaMalloc(&st.flag, 1));
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const long long passes = 2400;  // a multiple of every k
  for (int prog = 0; prog < 2; ++prog) {
    // Straight line: `passes` bodies in one graph (the node floor).
    {
      CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
      for (long long i = 0; i < passes; ++i) body(s, prog, st);
      cudaGraph_t g; CK(cudaStreamEndCapture(s, &g));
      cudaGraphExec_t e; CK(cudaGraphInstantiate(&e, g, 0));
      std::printf("prog %d straight line, 2 kernels a pass: %.3f us a pass\n", prog, time_graph(e, s, st, passes));
      CK(cudaGraphExecDestroy(e)); CK(cudaGraphDestroy(g));
    }
    // Straight line of one kernel: the node floor of a statement's kernel on 10^4 floats.
    for (int shape = 0; shape < 3; ++shape) {
      CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
      for (long long i = 0; i < passes; ++i) {
        cudaLaunchConfig_t c{};
        c.blockDim = dim3(256);
        c.stream = s;
        cudaLaunchAttribute a{};
        a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
        a.val.programmaticStreamSerializationAllowed = 1;
        if (prog) { c.attrs = &a; c.numAttrs = 1; }
        if (shape == 0) { c.gridDim = dim3((n + 255) / 256); CK(cudaLaunchKernelEx(&c, work, st.x, static_cast<const bool*>(nullptr))); }
        if (shape == 1) { c.gridDim = dim3((n + 255) / 256); CK(cudaLaunchKernelEx(&c, axpy, static_cast<const float*>(st.y), st.x)); }
        if (shape == 2) { c.gridDim = dim3((n / 4 + 255) / 256); CK(cudaLaunchKernelEx(&c, axpy4, reinterpret_cast<const float4*>(st.y), reinterpret_cast<float4*>(st.x))); }
      }
      cudaGraph_t g; CK(cudaStreamEndCapture(s, &g));
      cudaGraphExec_t e; CK(cudaGraphInstantiate(&e, g, 0));
      const char* what[] = {"x = 0.999 x + 0.001, a float a thread", "y = 0.5 x + y, a float a thread", "y = 0.5 x + y, 4 floats a thread"};
      std::printf("prog %d straight line of one kernel, %s: %.3f us a node\n", prog, what[shape], time_graph(e, s, st, passes, false));
      CK(cudaGraphExecDestroy(e)); CK(cudaGraphDestroy(g));
    }
    // Eager from the host.
    {
      std::vector<float> t;
      cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
      for (int r = 0; r < 5; ++r) {
        CK(cudaEventRecord(a, s));
        for (long long i = 0; i < passes; ++i) body(s, prog, st);
        CK(cudaEventRecord(b, s));
        CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      std::printf("prog %d eager, 2 kernels a pass: %.3f us a pass\n", prog, t[2] * 1000 / passes);
    }
    for (int k : {1, 2, 4, 8}) {
      // WHILE { body; (IF(flag) { body })^(k-1) ; cond }
      CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
      conditional(s, cudaGraphCondTypeWhile,
                  [&](cudaGraphConditionalHandle h, cudaStream_t cs) { loop_cond<<<1, 1, 0, cs>>>(h, st.flag); },
                  [&](cudaStream_t bs, cudaGraphConditionalHandle h) {
                    body(bs, prog, st);
                    for (int j = 1; j < k; ++j)
                      conditional(bs, cudaGraphCondTypeIf,
                                  [&](cudaGraphConditionalHandle hi, cudaStream_t cs) { loop_cond<<<1, 1, 0, cs>>>(hi, st.flag); },
                                  [&](cudaStream_t ibs, cudaGraphConditionalHandle) { body(ibs, prog, st); });
                    loop_cond<<<1, 1, 0, bs>>>(h, st.flag);
                  });
      cudaGraph_t g; CK(cudaStreamEndCapture(s, &g));
      cudaGraphExec_t e; CK(cudaGraphInstantiate(&e, g, 0));
      std::printf("prog %d while, k=%d, if-guarded passes: %.3f us a pass\n", prog, k, time_graph(e, s, st, passes));
      CK(cudaGraphExecDestroy(e)); CK(cudaGraphDestroy(g));
      // WHILE { body; (guarded body)^(k-1); cond }: kernels that read the flag and return.
      CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
      conditional(s, cudaGraphCondTypeWhile,
                  [&](cudaGraphConditionalHandle h, cudaStream_t cs) { loop_cond<<<1, 1, 0, cs>>>(h, st.flag); },
                  [&](cudaStream_t bs, cudaGraphConditionalHandle h) {
                    body(bs, prog, st);
                    for (int j = 1; j < k; ++j) body(bs, prog, st, st.flag);
                    loop_cond<<<1, 1, 0, bs>>>(h, st.flag);
                  });
      CK(cudaStreamEndCapture(s, &g));
      CK(cudaGraphInstantiate(&e, g, 0));
      std::printf("prog %d while, k=%d, kernel-guarded passes: %.3f us a pass\n", prog, k, time_graph(e, s, st, passes));
      CK(cudaGraphExecDestroy(e)); CK(cudaGraphDestroy(g));
    }
  }
  return 0;
}
