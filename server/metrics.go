package server

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
)

// metrics are the process's Prometheus collectors, on a registry of its own
// (so two servers in one test process do not collide).
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	errors   *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	data     *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "shale_grpc_requests_total", Help: "gRPC calls received, by method.",
		}, []string{"method"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "shale_grpc_errors_total", Help: "gRPC calls that failed, by method and status code.",
		}, []string{"method", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "shale_grpc_latency_seconds", Help: "gRPC call latency, by method.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10),
		}, []string{"method"}),
		data: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "shale_data_total", Help: "Rows and cells read and written through the Bigtable API.",
		}, []string{"op", "unit"}),
	}
	m.reg.MustRegister(m.requests, m.errors, m.latency, m.data,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) observe(method string, start time.Time, err error) {
	m.requests.WithLabelValues(method).Inc()
	m.latency.WithLabelValues(method).Observe(time.Since(start).Seconds())
	if err != nil {
		m.errors.WithLabelValues(method, status.Code(err).String()).Inc()
	}
}

func (m *metrics) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	start := time.Now()
	resp, err := h(ctx, req)
	m.observe(info.FullMethod, start, err)
	return resp, err
}

func (m *metrics) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	start := time.Now()
	err := h(srv, ss)
	m.observe(info.FullMethod, start, err)
	return err
}

// Read and Wrote count data traffic: the Bigtable service reports through
// them (btserver.Observer).
func (m *metrics) Read(rows, cells int64) {
	m.data.WithLabelValues("read", "rows").Add(float64(rows))
	m.data.WithLabelValues("read", "cells").Add(float64(cells))
}

func (m *metrics) Wrote(rows, cells int64) {
	m.data.WithLabelValues("write", "rows").Add(float64(rows))
	m.data.WithLabelValues("write", "cells").Add(float64(cells))
}
