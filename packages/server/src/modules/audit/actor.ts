import type { FastifyRequest } from 'fastify';
import type { Actor } from './service.ts';

/** The signed-in user behind a mutation; routes that mutate are never public, so one is always there. */
export function actorOf(req: FastifyRequest): Actor {
  const id = req.principal?.userData.userid;
  if (!id) throw new Error('mutation without a signed-in principal');
  return { id };
}
