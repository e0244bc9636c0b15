// Package embedded starts a NATS server in the program, with JetStream
// keeping its streams in memory, as lockgen's tests, examples and fault
// suite run their distributed locks over (natstransport needs JetStream
// for its groups): nothing needs installing.
package embedded

import (
	"errors"
	"os"

	"github.com/nats-io/nats-server/v2/server"
)

// Start starts a server on 127.0.0.1 at port (0: any free port); its
// JetStream storage directory, which in-memory streams do not use, is a
// temporary directory removed by Shutdown. Connect with ClientURL.
func Start(port int) (*Server, error) { return start(&server.Options{}, port) }

// StartConfig is Start with the server configuration file at path (its
// accounts, users and permissions; its host, port and storage directory
// are Start's).
func StartConfig(path string, port int) (*Server, error) {
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		return nil, err
	}
	return start(opts, port)
}

func start(opts *server.Options, port int) (*Server, error) {
	if port == 0 {
		port = -1
	}
	dir, err := os.MkdirTemp("", "lockgen-nats-")
	if err != nil {
		return nil, err
	}
	opts.Host, opts.Port, opts.NoLog, opts.NoSigs = "127.0.0.1", port, true, true
	opts.JetStream, opts.StoreDir = true, dir
	if opts.JetStreamMaxMemory <= 0 {
		opts.JetStreamMaxMemory = 256 << 20
	}
	s, err := server.NewServer(opts)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	go s.Start()
	if !s.ReadyForConnections(10e9) {
		s.Shutdown()
		os.RemoveAll(dir)
		return nil, errors.New("embedded: the NATS server did not start")
	}
	return &Server{Server: s, dir: dir}, nil
}

// Server is a running embedded server.
type Server struct {
	*server.Server
	dir string
}

// Shutdown stops the server and removes its storage directory.
func (s *Server) Shutdown() {
	s.Server.Shutdown()
	s.Server.WaitForShutdown()
	os.RemoveAll(s.dir)
}
