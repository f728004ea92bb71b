export async function main(args: string[]): Promise<number> {
  console.log('args', args);
  return 0;
}
