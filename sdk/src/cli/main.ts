console.log('pix');
