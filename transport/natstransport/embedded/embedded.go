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
func Start(port int) (*Server, error) {
	if port == 0 {
		port = -1
	}
	dir, err := os.MkdirTemp("", "lockgen-nats-")
	if err != nil {
		return nil, err
	}
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: dir, JetStreamMaxMemory: 256 << 20})
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
