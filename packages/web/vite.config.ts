import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.SEXTANT_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': api,
      '/ws': { target: api.replace(/^http/, 'ws'), ws: true },
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
    // Two pages: the app, and the trace viewer served on its own port (specification point 2).
    rollupOptions: { input: { main: 'index.html', trace: 'trace.html' } },
  },
});
